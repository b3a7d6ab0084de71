// Building blocks of the portal's pages: made for a phone first (large tap targets, one column).
// What the buyer portal draws alike lives in the shell (shell/portal-ui.tsx).

export const inputClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-3 text-base text-slate-900 ' +
  'focus-visible:outline-2 focus-visible:outline-brand-600 aria-invalid:border-red-600'

export { Loading } from '../shell/ui'
export { Card, ErrorNotice, SuccessNotice } from '../shell/portal-ui'

/** Whom the portal is for, beside the brand (shell/portal-ui.tsx BrandMark). */
export const AUDIENCE = 'for providers'
