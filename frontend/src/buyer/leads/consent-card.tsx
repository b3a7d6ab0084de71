import { buttonClasses } from '../../components/button-classes'
import { formatDateTime } from '../format'
import type { ConsentProof } from '../types'
import { proofText, yesNo } from './proof-text'
import { Card, CopyButton, Facts } from '../ui'

/** The consent proof as the lead's post carried it, with a button that copies it whole. */
export function ConsentCard({ reference, proof }: { reference: string; proof: ConsentProof | null }) {
  if (!proof) {
    return (
      <Card title="Consent proof" id="consent-heading">
        <p className="text-sm text-slate-700">The consent proof was deleted with the lead at the end of its retention period.</p>
      </Card>
    )
  }
  const breakable = 'break-all font-mono text-xs'
  return (
    <Card title="Consent proof" id="consent-heading"
      actions={<CopyButton text={proofText(reference, proof)} label="Copy proof" className={buttonClasses('secondary', 'min-h-11 px-4 py-2 text-sm')} />}>
      <div className="space-y-3">
        <blockquote className="border-l-4 border-brand-100 pl-3 text-sm text-slate-800">{proof.text ?? 'The consent text was not kept.'}</blockquote>
        <Facts rows={[
          ['Text SHA-256', <code key="sha" className={breakable}>{proof.sha256 ?? '—'}</code>],
          ['Consented at', formatDateTime(proof.consentedAt)],
          ['IP address', proof.ip ?? '—'],
          ['User agent', <span key="ua" className="break-words">{proof.userAgent ?? '—'}</span>],
          ['Page', <span key="page" className="break-all">{proof.pageUrl ?? '—'}</span>],
          ['TrustedForm certificate', proof.trustedFormCertUrl ? (
            <a key="tf" href={proof.trustedFormCertUrl} target="_blank" rel="noopener noreferrer"
              className="break-all font-semibold text-brand-700 underline">{proof.trustedFormCertUrl}</a>
          ) : '—'],
          ['Global Privacy Control', yesNo(proof.globalPrivacyControl)],
          ['Do not sell or share', yesNo(proof.doNotSell)],
          ['Partner list version', proof.partnerListVersion ?? '—'],
        ]} />
      </div>
    </Card>
  )
}
