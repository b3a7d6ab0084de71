// Tokens read from mailed links, by the page they opened (read again, e.g. by React's development
// double render, they are still there after the address bar lost them). The portals, the console
// and the site's review page all open such links.
const taken = new Map<string, string>()

/** The token a mailed link carries after '#': read once, then taken out of the address bar (and history). */
export function takeLinkToken(): string {
  const page = window.location.pathname
  const token = window.location.hash.slice(1)
  if (token) {
    taken.set(page, token)
    window.history.replaceState(window.history.state, '', page)
  }
  return taken.get(page) ?? ''
}
