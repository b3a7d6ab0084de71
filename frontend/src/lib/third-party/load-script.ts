// One way to add a third-party script: async, once per URL, never blocking the page.
const pending = new Map<string, Promise<void>>()

export function loadScript(src: string, attributes: Record<string, string> = {}): Promise<void> {
  const known = pending.get(src)
  if (known) return known
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = src
    script.async = true
    for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value)
    script.onload = () => resolve()
    script.onerror = () => {
      // Allow a later attempt (the visitor may come back online).
      pending.delete(src)
      script.remove()
      reject(new Error(`Could not load ${src}`))
    }
    document.head.appendChild(script)
  })
  pending.set(src, loading)
  return loading
}
