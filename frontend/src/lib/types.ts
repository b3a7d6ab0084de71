// Shapes of the catalogue as GET /api/catalog and GET /api/services/... return it.
// The server's schema (backend/servicematch/catalog/schema.py) is the source of truth.

export type FieldType =
  | 'text' | 'email' | 'tel' | 'select' | 'textarea' | 'hidden' | 'radio' | 'date' | 'address'

export interface FieldDefinition {
  id: string
  label: string
  type: FieldType
  required: boolean
  width: 'half' | 'full'
  step: number | null
  options: string[] | null
  disqualifiers: string[]
  mapping: string | null
  placeholder: string | null
  pattern: string | null
  minLength: number | null
  maxLength: number | null
  autoComplete: string | null
  inputMode: string | null
  dateValidation: { minAge: number; maxAge: number } | null
  defaultValue: string | null
}

export interface ServiceSummary {
  id: string
  vertical: string
  name: string
  aliases: string[]
  flow: 'form' | 'call'
  title: string
  description: string
  image: string
  disclaimer: string | null
}

export interface ServiceConfig extends ServiceSummary {
  cid: number
  keywords: string[]
  ringbaPhoneNumber: string
  ringbaJSid: string
  phoneCallToAction: string
  includeBaseFields: boolean
  fields: FieldDefinition[]
  hiddenParams: { vertical: string; category: string; source: string }
  tcpaText: string
  successMessage: string
  faqs: { question: string; answer: string }[]
  testimonials: { quote: string; author: string; location: string }[]
}

export interface Category {
  id: string
  name: string
  title: string
  description: string
  keywords: string[]
  image: string
  services: string[]
}

export interface PublicConfig {
  brandName: string
  siteOrigin: string
  recaptchaSiteKey: string
  googleMapsApiKey: string
  callTrackingScriptUrl: string
  pixelId: string
  trustedformEnabled: boolean
}

export interface CatalogData {
  site: {
    defaultTcpaText: string
    baseFields: FieldDefinition[]
    states: { value: string; label: string }[]
  }
  config: PublicConfig
  categories: Category[]
  services: ServiceSummary[]
  marketingPartners: { version: string; note: string; partners: string[] }
}
