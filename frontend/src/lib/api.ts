import type { CatalogData, ServiceConfig } from './types'

export class ApiError extends Error {
  status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { Accept: 'application/json' } })
  if (!response.ok) {
    const body = await response.json().catch(() => ({}))
    throw new ApiError(response.status, body.error ?? response.statusText)
  }
  return response.json() as Promise<T>
}

export const fetchCatalog = () => getJson<CatalogData>('/api/catalog')

export const fetchService = (slug: string, vertical?: string) =>
  getJson<ServiceConfig>(
    vertical
      ? `/api/services/${encodeURIComponent(vertical)}/${encodeURIComponent(slug)}`
      : `/api/services/${encodeURIComponent(slug)}`,
  )
