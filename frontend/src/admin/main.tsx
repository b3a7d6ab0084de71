import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { ConsoleApp } from './console-app'
import './admin.css'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConsoleApp />
  </StrictMode>,
)
