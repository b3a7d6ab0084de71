import { beforeEach, describe, expect, it } from 'vitest'
import { applyMetadata } from './metadata'

const metadata = {
  title: 'Get Free HVAC Quotes From Local Pros in Texas | ServiceMatch',
  description: 'Compare quotes.',
  keywords: ['hvac near me', 'ac repair'],
  canonical: 'https://servicematch.example/services/hvac/tx',
  jsonLd: [{ '@type': 'Organization', name: 'ServiceMatch' }],
  indexable: true,
}

const content = (selector: string) => document.head.querySelector<HTMLMetaElement>(selector)?.content

describe('applyMetadata', () => {
  beforeEach(() => {
    document.head.innerHTML =
      '<meta name="description" content="old"><script type="application/ld+json">{"old":true}</script>'
  })

  it('writes title, description, keywords, og tags and canonical', () => {
    applyMetadata(metadata)
    expect(document.title).toBe(metadata.title)
    expect(content('meta[name="description"]')).toBe('Compare quotes.')
    expect(content('meta[name="keywords"]')).toBe('hvac near me, ac repair')
    expect(content('meta[property="og:title"]')).toBe(metadata.title)
    expect(content('meta[property="og:description"]')).toBe('Compare quotes.')
    expect(document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href).toBe(metadata.canonical)
    expect(document.head.querySelectorAll('meta[name="description"]')).toHaveLength(1)
  })

  it('says noindex only on pages that are not indexable', () => {
    applyMetadata({ ...metadata, title: 'Service Not Found | ServiceMatch', indexable: false })
    expect(content('meta[name="robots"]')).toBe('noindex')
    applyMetadata(metadata)
    expect(document.head.querySelector('meta[name="robots"]')).toBeNull()
  })

  it('replaces the previous page structured data', () => {
    applyMetadata(metadata)
    const scripts = [...document.head.querySelectorAll('script[type="application/ld+json"]')]
    expect(scripts.map((s) => JSON.parse(s.textContent ?? ''))).toEqual(metadata.jsonLd)
  })
})
