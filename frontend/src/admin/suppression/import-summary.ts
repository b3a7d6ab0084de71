// The console's suppression-list answers (backend/servicematch/console/suppression.py), and what an
// import did in words.
import type { components } from '../../lib/api-schema'

type Schemas = components['schemas']
export type SuppressionList = Schemas['ConsoleSuppressionList']
export type Imported = Schemas['SuppressionImported']

const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`

/** What an import did, in one sentence. */
export function describeImport(answer: Imported): string {
  const parts = [`${plural(answer.added, 'entry', 'entries')} added`]
  if (answer.unchanged) parts.push(`${plural(answer.unchanged, 'line')} already on the list or repeated`)
  if (answer.bad) {
    const more = answer.bad > answer.badLines.length ? ', …' : ''
    parts.push(`${plural(answer.bad, 'bad line')} skipped (line ${answer.badLines.join(', ')}${more})`)
  }
  if (answer.removed) parts.push(`${plural(answer.removed, 'entry', 'entries')} removed first`)
  const list = answer.list.name
  return `${answer.created ? `New list ${list}` : `Imported into ${list}`}: ${parts.join('; ')}.`
}
