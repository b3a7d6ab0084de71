import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { router } from './app/router'
import { CatalogProvider } from './lib/catalog-context'
import './index.css'

function mount() {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <CatalogProvider>
        <RouterProvider router={router} />
      </CatalogProvider>
    </StrictMode>,
  )
}

// The server's hero (real heading and text) is painted before the first render replaces it, so
// a visitor sees content one frame after the HTML arrives instead of after the scripts run.
// A tab opened in the background paints nothing, so it mounts at once.
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(mount))
else mount()
