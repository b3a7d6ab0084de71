"""Consent evidence: the exact text a visitor agreed to and the circumstances of agreeing."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from servicematch.catalog.loader import CatalogIndex
from servicematch.catalog.schema import ServiceConfig
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
                         evidence: ConsentEvidence, lead_id: str, partner_list_version: str,
                         consented_at: datetime) -> ConsentRecord:
    """The consent row for one lead, with the text rendered exactly as the page showed it.

    `partner_list_version`: the marketing-partners list current when the lead came in (the one the
    consent text's link showed); `consented_at`: the lead's own created_at, one instant for both,
    so a post never says the consumer agreed after the lead was made."""
    text = index.tcpa_text(service, brand_name)
    return ConsentRecord(
        id=new_id(),
        lead_id=lead_id,
        consent_text=text,
        consent_text_sha256=text_digest(text),
        partner_list_version=partner_list_version,
        consented_at=consented_at,
        ip_address=evidence.ip_address or None,
        user_agent=evidence.user_agent or None,
        page_url=evidence.page_url or None,
        trustedform_cert_url=evidence.trustedform_cert_url or None,
        global_privacy_control=evidence.global_privacy_control,
    )
