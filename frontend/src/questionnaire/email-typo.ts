// A likely typo in an e-mail's domain ("gmial.com"), offered back as a one-tap correction.

// The domains most US visitors use; a typed domain one or two keystrokes away from one of them is
// almost always that domain mistyped.
const COMMON_DOMAINS = [
  'gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'aol.com', 'icloud.com', 'live.com',
  'msn.com', 'comcast.net', 'att.net', 'sbcglobal.net', 'verizon.net', 'me.com', 'ymail.com',
]

/** Edit distance with adjacent swaps counted as one edit (optimal string alignment). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j += 1) rows[0][j] = j
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1)
      }
    }
  }
  return rows[a.length][b.length]
}

/** The corrected address when the domain looks like a typo of a common one, else null. */
export function suggestEmail(email: string): string | null {
  const at = email.lastIndexOf('@')
  if (at < 1) return null
  const local = email.slice(0, at).trim()
  const domain = email.slice(at + 1).trim().toLowerCase()
  if (!domain || COMMON_DOMAINS.includes(domain)) return null
  let best: { domain: string; edits: number } | null = null
  for (const candidate of COMMON_DOMAINS) {
    const edits = distance(domain, candidate)
    if (edits <= 2 && (!best || edits < best.edits)) best = { domain: candidate, edits }
  }
  return best ? `${local}@${best.domain}` : null
}
