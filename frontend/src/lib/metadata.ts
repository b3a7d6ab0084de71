// Per-path page metadata (spec section 2, "Page metadata"). The server computes it once, with
// the spec's precedence, for both the first HTML answer and GET /api/page-meta; the browser
// asks for it on each client-side navigation so the two never disagree.

export interface PageMetadata {
  title: string
  description: string
  keywords: string[]
  canonical: string
  jsonLd: unknown[]
  /** False for pages search engines should leave out (unknown services, funnel steps). */
  indexable: boolean
}

const cache = new Map<string, Promise<PageMetadata>>()

/** The metadata of a path, fetched once per path and visit. */
export function fetchPageMetadata(pathname: string): Promise<PageMetadata> {
  let pending = cache.get(pathname)
  if (!pending) {
    pending = fetch(`/api/page-meta?path=${encodeURIComponent(pathname)}`).then((response) => {
      if (!response.ok) throw new Error(`page metadata: HTTP ${response.status}`)
      return response.json() as Promise<PageMetadata>
    })
    // A failed request may succeed later (the visitor may come back online).
    pending.catch(() => cache.delete(pathname))
    cache.set(pathname, pending)
  }
  return pending
}

function setMeta(attribute: 'name' | 'property', key: string, content: string): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`)
  if (!element) {
    element = document.createElement('meta')
    element.setAttribute(attribute, key)
    document.head.appendChild(element)
  }
  element.content = content
}

/** Write the metadata into <head>: title (already carrying the brand suffix), meta tags, canonical, JSON-LD. */
export function applyMetadata(metadata: PageMetadata): void {
  document.title = metadata.title
  setMeta('name', 'description', metadata.description)
  setMeta('name', 'keywords', metadata.keywords.join(', '))
  setMeta('property', 'og:title', metadata.title)
  setMeta('property', 'og:description', metadata.description)
  setMeta('property', 'og:url', metadata.canonical)
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')
  if (!link) {
    link = document.createElement('link')
    link.rel = 'canonical'
    document.head.appendChild(link)
  }
  link.href = metadata.canonical
  const robots = document.head.querySelector('meta[name="robots"]')
  if (metadata.indexable) robots?.remove()
  else setMeta('name', 'robots', 'noindex')
  for (const script of document.head.querySelectorAll('script[type="application/ld+json"]')) script.remove()
  for (const item of metadata.jsonLd) {
    const script = document.createElement('script')
    script.type = 'application/ld+json'
    script.textContent = JSON.stringify(item)
    document.head.appendChild(script)
  }
}
