import { createBrowserRouter } from 'react-router'
import { appRoutes } from './route-table'

// In the browser only: the server renders the same routes with a static router (entry-server.tsx).
export const router = createBrowserRouter(appRoutes)
