// Shapes of the operator console API (docs/console-api.md is the contract; the server decides).
// Every answer's shape is the server's OpenAPI schema (lib/api-schema.ts, `make api-types`): these
// are its names as the console's pages use them.
import type { components } from '../lib/api-schema'

type Schemas = components['schemas']

export type SessionAnswer = Schemas['ConsoleSession']
export type Operator = Schemas['ConsoleOperator']
export type Role = Operator['role']

export type Dashboard = Schemas['Dashboard']
export type KeyCount = Schemas['KeyCount']
export type Funnel = Schemas['Funnel']
export type FunnelStep = Schemas['FunnelStep']
/** Deliveries of one kind by status; total includes skipped ones (never sent, on purpose). */
export type StatusCounts = Schemas['StatusCounts']
/** The leads' deliveries (to buyers and providers), with receipts and privacy notices apart. */
export type DeliverySummary = Schemas['DeliverySummary']
/** Money in cents; a sale counts on the day its lead came in. */
export type Revenue = Schemas['Revenue']
export type KeyRevenue = Schemas['KeyRevenue']

export type LeadRow = Schemas['LeadRow']
export type LeadDetail = Schemas['LeadDetail']
export type LeadDelivery = Schemas['LeadDelivery']
export type DeliveryAttempt = Schemas['DeliveryAttempt']
export type AuctionStep = Schemas['AuctionStep']
export type DeliveryRow = Schemas['DeliveryRow']

export type Provider = Schemas['ConsoleProvider']
/** How a provider's test send went, by channel. */
export type TestSendResult = Schemas['SampleSend']
export type Buyer = Schemas['ConsoleBuyer']
export type BuyerBid = Schemas['BuyerBid']
export type PingResult = Schemas['PingTried']
export type PostResult = Schemas['PostTried']

export type AuditEntry = Schemas['AuditRow']

export type { Page } from '../shell/use-api'
