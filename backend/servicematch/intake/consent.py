"""Consent evidence: the exact text a visitor agreed to and the circumstances of agreeing."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from servicematch.catalog.loader import CatalogIndex
from servicematch.catalog.schema import ServiceConfig
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id

from .models import ConsentRecord


@dataclass(frozen=True)
class ConsentEvidence:
    """What the server observed about the request that carried the consent."""

    ip_address: str
    user_agent: str
    page_url: str
    trustedform_cert_url: str
    global_privacy_control: bool


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def build_consent_record(*, index: CatalogIndex, service: ServiceConfig, brand_name: str,
                         evidence: ConsentEvidence, lead_id: str) -> ConsentRecord:
    """The consent row for one lead, with the text rendered exactly as the page showed it."""
    text = index.tcpa_text(service, brand_name)
    return ConsentRecord(
        id=new_id(),
        lead_id=lead_id,
        consent_text=text,
        consent_text_sha256=text_digest(text),
        partner_list_version=index.catalog.marketingPartners.version,
        consented_at=utcnow(),
        ip_address=evidence.ip_address or None,
        user_agent=evidence.user_agent or None,
        page_url=evidence.page_url or None,
        trustedform_cert_url=evidence.trustedform_cert_url or None,
        global_privacy_control=evidence.global_privacy_control,
    )
