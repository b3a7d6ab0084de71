import { render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { ConsentBlock } from './consent'

describe('the consent block', () => {
  it('links the privacy policy and the terms, in a new tab so the answers stay', () => {
    render(
      <MemoryRouter>
        <ConsentBlock text="I agree to be contacted by marketing partners." checked={false} onChange={() => {}} disabled={false} />
      </MemoryRouter>,
    )
    const privacy = screen.getByRole('link', { name: 'Privacy Policy' })
    const terms = screen.getByRole('link', { name: 'Terms of Use' })
    expect(privacy.getAttribute('href')).toBe('/privacy-policy')
    expect(terms.getAttribute('href')).toBe('/terms')
    expect(privacy.getAttribute('target')).toBe('_blank')
    expect(screen.getByRole('link', { name: 'marketing partners' }).getAttribute('href')).toBe('/marketing-partners')
  })
})
