// An audit entry in words: what was done, and what changed.

const ACTIONS: Record<string, string> = {
  'buyer.settings.change': 'Settings changed',
  // The buyer's own switch on the settings page.
  'buyer.self.pause': 'Paused',
  'buyer.self.resume': 'Resumed',
  'buyer.urls.change': 'URLs changed',
  'buyer.secret.rotate': 'Signing secret rotated',
  'buyer.key.create': 'API key made',
  'buyer.key.revoke': 'API key revoked',
  'buyer.add': 'Account opened by ServiceMatch',
  'buyer.change': 'Changed by ServiceMatch',
  // The operator's switch in the console, apart from the buyer's own: buying stops (or starts
  // again) whatever the buyer's own switch says.
  'buyer.pause': 'Buying paused by ServiceMatch',
  'buyer.resume': 'Buying resumed by ServiceMatch',
}

// The settings' names as the settings page labels them.
const FIELDS: Record<string, string> = {
  services: 'Services', states: 'States', zips: 'ZIP codes', dailyCap: 'Daily cap', monthlyBudget: 'Monthly budget',
  hours: 'Buying hours', bidFloor: 'Bid floor', price: 'Price', paused: 'Paused', pingUrl: 'Ping URL', postUrl: 'Post URL',
  name: 'Name', prefix: 'Key', previousValidUntil: 'Previous secret signs until',
}

export const actionText = (action: string) => ACTIONS[action] ?? action

function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none'
  if (Array.isArray(value)) return value.length ? value.map(valueText).join(', ') : 'none'
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** "Daily cap: 50 → 75; States: TX → TX, OK"; a fact as "Name: value". */
export function detailText(detail: unknown): string {
  if (detail === null || detail === undefined) return ''
  if (typeof detail !== 'object' || Array.isArray(detail)) return valueText(detail)
  return Object.entries(detail as Record<string, unknown>)
    .map(([name, value]) => (Array.isArray(value) && value.length === 2
      ? `${FIELDS[name] ?? name}: ${valueText(value[0])} → ${valueText(value[1])}`
      : `${FIELDS[name] ?? name}: ${valueText(value)}`))
    .join('; ')
}
