import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { PortalApp } from './portal-app'
import './pro.css'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PortalApp />
  </StrictMode>,
)
