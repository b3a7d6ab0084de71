import { createApiHooks } from '../shell/use-api'
import { request } from './api'

export type { Loaded, PagedList } from '../shell/use-api'

/** GET a console path whenever it changes, or a cursor-paged list of one; null waits. */
export const { useApi, usePagedList } = createApiHooks(request)
