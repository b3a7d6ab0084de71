import { lazy, Suspense, type ComponentType } from 'react'
import type { RouteObject } from 'react-router'
import { Loading } from './ui'

/** A route's page as its own chunk, so the sign-in form waits for no page's code. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'element'> {
  const Page = lazy(load)
  return { element: <Suspense fallback={<Loading />}><Page /></Suspense> }
}
