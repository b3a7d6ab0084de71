// What the API's codes mean, in the words the portal shows.
import type { FeedbackStatus, LeadStatus, ReturnReason, ReturnStatus } from './types'

export const LEAD_STATUSES: { value: LeadStatus; label: string; className: string }[] = [
  { value: 'sold', label: 'Sold', className: 'bg-green-100 text-green-800' },
  { value: 'return_pending', label: 'Return pending', className: 'bg-amber-100 text-amber-900' },
  { value: 'returned', label: 'Returned', className: 'bg-slate-200 text-slate-800' },
  { value: 'return_denied', label: 'Return denied', className: 'bg-red-100 text-red-800' },
]

export const RETURN_REASONS: { value: ReturnReason; label: string }[] = [
  { value: 'wrong_phone', label: 'Wrong or disconnected phone' },
  { value: 'duplicate', label: 'Duplicate of a lead we bought' },
  { value: 'fraud', label: 'Fake or fraudulent' },
  { value: 'under_18', label: 'Consumer under 18' },
  { value: 'outside_filters', label: 'Outside our filters' },
  { value: 'other', label: 'Other (say why)' },
]

export const RETURN_STATUSES: { value: ReturnStatus; label: string; className: string }[] = [
  { value: 'pending', label: 'Waiting for review', className: 'bg-amber-100 text-amber-900' },
  { value: 'approved', label: 'Approved', className: 'bg-green-100 text-green-800' },
  { value: 'denied', label: 'Denied', className: 'bg-red-100 text-red-800' },
]

export const FEEDBACK_STATUSES: { value: FeedbackStatus; label: string }[] = [
  { value: 'contacted', label: 'Contacted' },
  { value: 'appointment', label: 'Appointment set' },
  { value: 'quoted', label: 'Quoted' },
  { value: 'sold', label: 'Sold' },
  { value: 'bad', label: 'Bad lead' },
]

const labelOf = <T extends string>(list: { value: T; label: string }[], value: T | null | undefined) =>
  list.find((entry) => entry.value === value)?.label ?? value ?? '—'

export const leadStatusLabel = (status: LeadStatus) => labelOf(LEAD_STATUSES, status)
export const returnReasonLabel = (reason: ReturnReason) => labelOf(RETURN_REASONS, reason)
export const returnStatusLabel = (status: ReturnStatus) => labelOf(RETURN_STATUSES, status)
export const feedbackLabel = (status: FeedbackStatus | null) => labelOf(FEEDBACK_STATUSES, status)
