import { matchRoutes } from 'react-router'
import manifest from '../../../backend/servicematch/web/routes.json'

// Funnel pages get the reduced shell (logo only) so nothing distracts from finishing.
const funnelRoutes = manifest.routes.filter((route) => route.funnel).map((route) => ({ path: route.path }))

export const isFunnelPath = (pathname: string) => (matchRoutes(funnelRoutes, pathname)?.length ?? 0) > 0
