"""Verify and retain a lead's TrustedForm certificate through TrustedForm's certificate API (v4).

On while SERVICEMATCH_TRUSTEDFORM_API_KEY is set. One POST to the certificate's own URL (HTTP
Basic, user "API", the key as password; header `api-version: 4.0`) runs three operations:
`match_lead` (the lead's e-mail and phone are the ones the certificate recorded), `retain` (kept
in our account for its retention period, with the lead id as reference), and `insights` (the page
the certificate recorded, and a scan for our consent text, word for word, on that page).

A certificate fails when TrustedForm does not know it (404/410), when its URL is not one of
TrustedForm's (SERVICEMATCH_TRUSTEDFORM_API_BASE: the key is never sent anywhere else), when the
lead does not match it, when it was recorded on another site, or when our consent text is not on
its page. TrustedForm unreachable, failing (5xx) or refusing our key is no verdict.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx

from servicematch.settings import Settings

log = logging.getLogger("servicematch.quality")

API_VERSION = "4.0"
TIMEOUT_SECONDS = 3.0
# A certificate id: TrustedForm's ids are at most 255 characters of these.
CERTIFICATE_ID = re.compile(r"^[A-Za-z0-9_-]{1,255}$")
NOT_FOUND = (404, 410)


@dataclass(frozen=True)
class CertificateVerdict:
    """`failed`: True (held: trustedform_failed), False (verified), None (no verdict). `proof`: the
    fields the consent proof of a post carries (empty when TrustedForm was not asked)."""

    failed: bool | None
    proof: dict = field(default_factory=dict)


def is_enabled(settings: Settings) -> bool:
    return bool(settings.trustedform_api_key)


def _proof(*, verified: bool | None, problem: str | None = None, retained: dict | None = None) -> dict:
    retained = retained or {}
    return {
        "trustedFormVerified": verified,
        "trustedFormProblem": problem,
        "trustedFormRetained": bool(retained),
        "trustedFormRetainedUntil": retained.get("expires_at"),
        "trustedFormMaskedCertUrl": retained.get("masked_cert_url"),
    }


def _failed(problem: str, retained: dict | None = None) -> CertificateVerdict:
    return CertificateVerdict(failed=True, proof=_proof(verified=False, problem=problem, retained=retained))


def _host(url: str | None) -> str:
    try:
        return (urlsplit(url or "").hostname or "").lower()
    except ValueError:
        return ""


class CertificateCheck:
    """One HTTP client for the process (its connections stay open between leads)."""

    def __init__(self, settings: Settings, *, timeout_seconds: float = TIMEOUT_SECONDS) -> None:
        self.base = settings.trustedform_api_base.rstrip("/")
        self.vendor = settings.brand_name
        self.site_host = _host(settings.site_origin)
        self.client = httpx.Client(timeout=timeout_seconds, auth=("API", settings.trustedform_api_key),
                                   headers={"api-version": API_VERSION, "Accept": "application/json"})

    def close(self) -> None:
        self.client.close()

    def verify(self, *, cert_url: str, lead_id: str, email: str, phone: str, consent_text: str,
               page_url: str | None) -> CertificateVerdict:
        """Verify and retain one certificate (see the module's docstring for what fails)."""
        certificate_id = cert_url.removeprefix(self.base + "/") if cert_url.startswith(self.base + "/") else ""
        if not CERTIFICATE_ID.match(certificate_id):
            return _failed("the certificate URL is not TrustedForm's")
        body = {
            "match_lead": {"email": email, "phone": phone},
            "retain": {"reference": lead_id, "vendor": self.vendor},
            "insights": {"properties": ["page_url", "domain"], "scans": {"required": [consent_text]}},
        }
        try:
            response = self.client.post(f"{self.base}/{certificate_id}", json=body)
        except httpx.HTTPError as exc:
            log.warning("TrustedForm could not be asked about a certificate (%s): no verdict", type(exc).__name__)
            return CertificateVerdict(failed=None, proof=_proof(verified=None, problem="TrustedForm unreachable"))
        if response.status_code in NOT_FOUND:
            return _failed("TrustedForm has no such certificate")
        if response.status_code in (401, 403):
            log.error("TrustedForm refused SERVICEMATCH_TRUSTEDFORM_API_KEY (%s): certificates are not verified",
                      response.status_code)
            return CertificateVerdict(failed=None, proof=_proof(verified=None, problem="TrustedForm refused our key"))
        try:
            answer = response.json()
        except ValueError:
            answer = None
        if response.status_code >= 500 or not isinstance(answer, dict):
            log.warning("TrustedForm answered %s for a certificate: no verdict", response.status_code)
            return CertificateVerdict(failed=None, proof=_proof(verified=None, problem="TrustedForm failed"))
        return self._judge(answer, expected_hosts={self.site_host, _host(page_url)} - {""},
                           ok=response.status_code < 400)

    @staticmethod
    def _judge(answer: dict, *, expected_hosts: set[str], ok: bool) -> CertificateVerdict:
        retain = answer.get("retain") or {}
        # The reference shows "results"; some answers say "result".
        retained = retain.get("results") or retain.get("result") or {}
        problems = []
        match = ((answer.get("match_lead") or {}).get("result") or {}).get("success")
        if match is False:
            problems.append("the lead's e-mail and phone are not the ones the certificate recorded")
        insights = answer.get("insights") or {}
        properties = insights.get("properties") or {}
        page_host = _host(properties.get("page_url")) or str(properties.get("domain") or "").lower()
        if page_host and expected_hosts and page_host not in expected_hosts:
            problems.append(f"the certificate was recorded on {page_host}, not on this site")
        scans = (insights.get("scans") or {}).get("result") or {}
        if (scans.get("required") or {}).get("not_found") or scans.get("success") is False:
            problems.append("our consent text is not on the certificate's page")
        if not problems and answer.get("outcome") == "failure":
            problems.append(str(answer.get("reason") or "TrustedForm's outcome was a failure"))
        if problems:
            return _failed("; ".join(problems), retained)
        if answer.get("outcome") == "error" or not ok:
            # An operation TrustedForm could not run (one the plan lacks, a request it refused) says
            # nothing against the certificate.
            log.warning("TrustedForm could not run every operation on a certificate: %s", answer.get("reason"))
            return CertificateVerdict(failed=None, proof=_proof(verified=None, problem="TrustedForm gave no verdict",
                                                               retained=retained))
        return CertificateVerdict(failed=False, proof=_proof(verified=True, retained=retained))
