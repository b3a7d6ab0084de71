// Shapes of the catalogue as GET /api/catalog and GET /api/services/... return it, generated
// from the server's OpenAPI schema (api-schema.ts, `make api-types`; the models are
// backend/servicematch/catalog/answers.py and schema.py). Never edit api-schema.ts by hand.
import type { components } from './api-schema'

type Schemas = components['schemas']

export type FieldDefinition = Schemas['FieldDefinition']
export type FieldType = FieldDefinition['type']
export type ServiceSummary = Schemas['ServiceSummary']
export type ServiceConfig = Schemas['ServiceDetail']
export type Category = Schemas['Category']
export type PublicConfig = Schemas['PublicConfig']
export type CatalogData = Schemas['CatalogAnswer']
// What POST /api/submit-form answers, and what GET /api/leads/{requestId}/status says of the lead.
export type LeadAccepted = Schemas['LeadAccepted']
export type LeadStatus = Schemas['LeadStatus']
