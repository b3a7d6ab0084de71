"""The quality gate routing runs on each lead before any ping or offer (docs/quality.md).

    gate = QualityGate(settings)                      # once per worker: the clients, the pool
    histories = read_histories(session, leads, settings)  # in routing's read of a round: one query
    assessment = gate.assess(lead, histories[lead.id])    # after it: offline checks, then third parties
    record(lead, assessment)                          # score, reasons, status and proof on the lead

The offline checks (phone, e-mail, form, velocity) are pure functions of the lead, its decrypted
contact and the history, on sets and tables made once at import: tens of microseconds. The third
parties (Twilio Lookup, the DNS mail-server check, TrustedForm) run only when configured, side by
side on the gate's pool, each with a timeout of 2-3 s and no verdict when it fails.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor

from servicematch.intake.models import QUALITY_HELD, QUALITY_PASSED, Lead
from servicematch.intake.payload import decrypt_personal_data, quality_of
from servicematch.kernel.clock import as_utc
from servicematch.settings import Settings

from . import trustedform, twilio_lookup
from .email_checks import MailServerCheck, email_reasons
from .form_checks import form_reasons
from .history import History
from .phone_checks import phone_reasons
from .reasons import TRUSTEDFORM_FAILED, Assessment, judged
from .trustedform import CertificateCheck
from .twilio_lookup import PhoneLookup
from .velocity import velocity_reasons

log = logging.getLogger("servicematch.quality")

DNS_TIMEOUT_SECONDS = 2.0
# Lookups under way at once in one worker (routing runs up to 32 auctions side by side).
THIRD_PARTY_THREADS = 16


def offline_reasons(lead: Lead, history: History, contact: dict, settings: Settings) -> list[str]:
    """Every reason that needs no network: the lead, its decrypted contact details and its history."""
    return [
        *phone_reasons(contact.get("phone") or "", lead.state),
        *email_reasons(contact.get("email") or ""),
        *form_reasons(lead.quality_signals, flow=lead.flow, created_at=as_utc(lead.created_at), history=history,
                      min_seconds=settings.quality_min_form_seconds),
        *velocity_reasons(history, limit=settings.quality_velocity_limit),
    ]


class QualityGate:
    """The checks with what they need made once: the third parties' clients and a thread pool."""

    def __init__(self, settings: Settings, *, phone_lookup: PhoneLookup | None = None,
                 certificates: CertificateCheck | None = None) -> None:
        self.settings = settings
        self.phone_lookup = phone_lookup or (PhoneLookup(settings) if twilio_lookup.is_enabled(settings) else None)
        self.certificates = certificates or (
            CertificateCheck(settings) if trustedform.is_enabled(settings) else None)
        self.mail_servers = MailServerCheck(timeout_seconds=DNS_TIMEOUT_SECONDS) if settings.quality_email_dns else None
        self._pool = (ThreadPoolExecutor(THIRD_PARTY_THREADS, thread_name_prefix="quality")
                      if self.phone_lookup or self.mail_servers else None)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
        if self.certificates is not None:
            self.certificates.close()

    def assess(self, lead: Lead, history: History, *, contact: dict | None = None,
               third_parties: bool = True) -> Assessment:
        """The lead's score, reasons, hold and consent proof.

        `lead` needs its consent record loaded (routing's joinedload); `contact` is its decrypted
        contact details, when the caller has them already (else decrypted here). With
        `third_parties=False` no paid lookup or retention is made (a lead nobody may be sold)."""
        if contact is None:
            contact = decrypt_personal_data(lead=lead, settings=self.settings)["contact"]
        reasons = offline_reasons(lead, history, contact, self.settings)
        proof: dict = {}
        if third_parties:
            found, proof = self._third_party_reasons(lead, contact)
            reasons += found
        return judged(reasons, hold_below=self.settings.quality_hold_below, proof=proof)

    def _third_party_reasons(self, lead: Lead, contact: dict) -> tuple[list[str], dict]:
        phone, email = contact.get("phone") or "", contact.get("email") or ""
        asked: list[Future] = []
        if self._pool is not None and self.phone_lookup is not None and phone:
            asked.append(self._pool.submit(self.phone_lookup.reasons, phone))
        if self._pool is not None and self.mail_servers is not None and email:
            asked.append(self._pool.submit(self.mail_servers.reasons, email))
        reasons: list[str] = []
        proof: dict = {}
        consent = lead.consent
        if self.certificates is not None and consent is not None and consent.trustedform_cert_url:
            # On this thread, while the lookups run on the pool.
            verdict = self.certificates.verify(cert_url=consent.trustedform_cert_url, lead_id=lead.id, email=email,
                                               phone=phone, consent_text=consent.consent_text,
                                               page_url=consent.page_url)
            proof = verdict.proof
            if verdict.failed:
                reasons.append(TRUSTEDFORM_FAILED)
        for answer in asked:
            try:
                reasons += answer.result()
            except Exception:  # a check's own failure is no verdict, never a lost lead
                log.exception("a quality lookup failed; the lead is judged without it")
        return reasons, proof


def record(lead: Lead, assessment: Assessment) -> None:
    """Write the verdict on the lead: score, reasons, held or passed, and TrustedForm's proof."""
    lead.quality_score = assessment.score
    lead.quality_reasons = list(assessment.reasons)
    lead.quality_status = QUALITY_HELD if assessment.hold else QUALITY_PASSED
    lead.quality_proof = dict(assessment.proof) or None


def quality_summary(lead: Lead) -> dict | None:
    """What pings and posts carry as "quality": {"score": 87, "reasons": [...]}; None before the gate ran.
    Intake builds it (the payload's own code), so pings and posts can never disagree."""
    return quality_of(lead)


def consent_proof_fields(lead: Lead) -> dict:
    """The fields a post's consent proof adds (trustedFormVerified, trustedFormRetained,
    trustedFormRetainedUntil, trustedFormMaskedCertUrl, trustedFormProblem); {} when TrustedForm
    was not asked about this lead."""
    return dict(lead.quality_proof or {})
