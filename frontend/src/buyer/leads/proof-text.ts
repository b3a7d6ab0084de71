import type { ConsentProof } from '../types'

export const yesNo = (value: boolean) => (value ? 'Yes' : 'No')

/** The proof as plain text, for a compliance team's file: every field, times in UTC. */
export function proofText(reference: string, proof: ConsentProof): string {
  return [
    `Consent proof of lead ${reference}`,
    `Consent text: ${proof.text ?? '-'}`,
    `Consent text SHA-256: ${proof.sha256 ?? '-'}`,
    `Consented at: ${proof.consentedAt ?? '-'}`,
    `IP address: ${proof.ip ?? '-'}`,
    `User agent: ${proof.userAgent ?? '-'}`,
    `Page: ${proof.pageUrl ?? '-'}`,
    `TrustedForm certificate: ${proof.trustedFormCertUrl ?? '-'}`,
    `Global Privacy Control: ${yesNo(proof.globalPrivacyControl)}`,
    `Do not sell or share: ${yesNo(proof.doNotSell)}`,
    `Partner list version: ${proof.partnerListVersion ?? '-'}`,
  ].join('\n')
}
