import { paths } from '../lib/paths'
import type { CatalogData, Category, ServiceSummary } from '../lib/types'

/** A category's services in its display order, each with the page it links to. */
export function servicesOf(catalog: CatalogData, category: Category): { service: ServiceSummary; to: string }[] {
  return category.services.flatMap((slug) => {
    const service = catalog.services.find((s) => s.id === slug && s.vertical === category.id)
    return service ? [{ service, to: paths.service(category.id, service.id) }] : []
  })
}
