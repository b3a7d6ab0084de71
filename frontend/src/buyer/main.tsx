import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BuyerApp } from './buyer-app'
import './buyer.css'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BuyerApp />
  </StrictMode>,
)
