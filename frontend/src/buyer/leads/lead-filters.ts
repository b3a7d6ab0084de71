// The leads list's filters, kept in the address's query so a reload or a shared link shows the
// same view, and the same filters on the CSV export.
import { query } from '../../shell/use-api'
import { API_PREFIX } from '../api'
import { LEAD_STATUSES } from '../labels'

export const FILTER_KEYS = ['from', 'to', 'service', 'state', 'status'] as const
export type FilterKey = (typeof FILTER_KEYS)[number]
export type LeadFilters = Record<FilterKey, string>

export const PAGE_SIZE = 50

const DAY = /^\d{4}-\d{2}-\d{2}$/
const STATE = /^[A-Z]{2}$/
const SERVICE = /^[a-z0-9-]+(\/[a-z0-9-]+)?$/

/** The filters the address asks for; anything the API would refuse is left out rather than sent. */
export function filtersFrom(params: URLSearchParams): LeadFilters {
  const value = (key: FilterKey) => (params.get(key) ?? '').trim()
  const status = value('status')
  return {
    from: DAY.test(value('from')) ? value('from') : '',
    to: DAY.test(value('to')) ? value('to') : '',
    service: SERVICE.test(value('service')) ? value('service') : '',
    state: STATE.test(value('state').toUpperCase()) ? value('state').toUpperCase() : '',
    status: LEAD_STATUSES.some((entry) => entry.value === status) ? status : '',
  }
}

export const anyFilter = (filters: LeadFilters) => FILTER_KEYS.some((key) => filters[key] !== '')

/** The list's first page with these filters (the portal API's path, under its prefix). */
export const listPath = (filters: LeadFilters) => `/leads${query({ ...filters, limit: String(PAGE_SIZE) })}`

/** The CSV export of the same leads: a plain download, which the browser sends the session cookie with. */
export const csvHref = (filters: LeadFilters) => `${API_PREFIX}/leads.csv${query(filters)}`
