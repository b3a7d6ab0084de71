"""A test ping or a test post to a buyer's URL: what the console's test buttons send, and what a
buyer's new URL must answer in the buyer portal before it takes effect.

The lead is made up, never stored and marked as a test (`"test": true`, `"istest": "Y"`): nobody's
facts, and in a post clearly fake contact details. It goes out with the worker's own client and
rules (no private address or plain http where SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS forbids them),
signed with the buyer's secrets in force, as a real ping or post would be.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

from servicematch.intake.models import ConsentRecord, Lead
from servicematch.intake.payload import consent_proof
from servicematch.kernel.clock import utcnow
from servicematch.outbound.http_sender import DeliveryClient, encode_body, post_signed
from servicematch.outbound.outcome import Outcome, SendResult
from servicematch.outbound.signing import overlap_secrets
from servicematch.routing.models import Buyer
from servicematch.routing.pings import UNREADABLE, ping_body, read_bid
from servicematch.settings import Settings

# Made-up facts, nobody's: what a buyer is pinged with for a test, and the consent it would prove.
SAMPLE_FACTS = {"vertical": "services", "service": "hvac", "category": "HVAC", "state": "TX",
                "zip": "78701", "answers": {"project": "repair"}}
SAMPLE_CONSENT = ("TEST ONLY. This is a sample lead sent by ServiceMatch to test a buyer's endpoint; no "
                  "consumer gave consent and nobody is to be contacted.")
SAMPLE_CONTACT = {"first": "Test", "last": "Lead", "email": "test@example.com", "phone": "5555550100",
                  "address1": "1 Test Street", "city": "Austin", "state": "TX", "zip": "78701"}


@dataclass(frozen=True)
class PingCheck:
    """A test ping's answer, read as an auction reads it. `ok`: a 2xx with a bid or a clear pass."""

    url: str
    ok: bool
    cents: int | None
    reason: str | None
    http_status: int | None
    duration_ms: int
    ping_id: str


@dataclass(frozen=True)
class PostCheck:
    """A test post's answer. `ok`: a 2xx, as a real post is taken."""

    url: str
    ok: bool
    outcome: str
    http_status: int | None
    error: str | None
    duration_ms: int


def sample_lead() -> Lead:
    """A lead that is never stored, marked as a test."""
    lead = Lead(id=f"test-{uuid.uuid4()}", request_id=f"test-{uuid.uuid4()}", is_test=True, do_not_sell=False,
                created_at=utcnow(), **SAMPLE_FACTS)
    lead.consent = ConsentRecord(consent_text=SAMPLE_CONSENT, consent_text_sha256="0" * 64,
                                 partner_list_version="test", consented_at=lead.created_at,
                                 ip_address="192.0.2.1", user_agent="ServiceMatch endpoint test",
                                 page_url="https://example.com/test", global_privacy_control=False)
    return lead


def _send(buyer: Buyer, *, url: str, body: dict, message_id: str, timeout_ms: int, settings: Settings) -> SendResult:
    client = DeliveryClient(allow_private=settings.private_webhooks_allowed)
    timestamp = int(time.time())
    try:
        return post_signed(client=client, url=url, body=encode_body(body), secret=buyer.secret,
                           message_id=message_id, idempotency_key=message_id, timestamp=timestamp,
                           timeout=timeout_ms / 1000, allow_private=settings.private_webhooks_allowed,
                           extra_secrets=overlap_secrets(buyer.previous_secret, buyer.previous_secret_until,
                                                         timestamp=timestamp))
    finally:
        client.close()


def check_ping(buyer: Buyer, url: str, settings: Settings) -> PingCheck:
    """Ping `url` now with the sample lead's facts, within the auction's ping deadline."""
    lead = sample_lead()
    ping_id = f"test-{uuid.uuid4()}"
    body = ping_body(lead=lead, ping_id=ping_id, exclusive=buyer.exclusive)
    started = time.monotonic()
    sent = _send(buyer, url=url, body=body, message_id=ping_id, timeout_ms=settings.ping_timeout_ms,
                 settings=settings)
    elapsed = round((time.monotonic() - started) * 1000)
    cents, why = read_bid(sent.status_code, sent.response_body, max_cents=settings.max_bid_cents,
                          floor_cents=buyer.bid_floor_cents)
    if cents is None and not sent.status_code and sent.error:
        why = sent.error
    answered = sent.status_code is not None and 200 <= sent.status_code < 300
    return PingCheck(url=url, ok=answered and why not in UNREADABLE, cents=cents, reason=why,
                     http_status=sent.status_code, duration_ms=elapsed, ping_id=ping_id)


def check_post(buyer: Buyer, url: str, settings: Settings) -> PostCheck:
    """Post the sample lead, with clearly fake details, to `url` now, within the post deadline."""
    lead = sample_lead()
    body = {"istest": "Y", "test": True, "requestId": lead.request_id,
            "consumer": {**SAMPLE_CONTACT, "vertical": lead.vertical, "category": lead.category},
            **consent_proof(lead)}
    started = time.monotonic()
    sent = _send(buyer, url=url, body=body, message_id=lead.request_id, timeout_ms=settings.post_timeout_ms,
                 settings=settings)
    return PostCheck(url=url, ok=sent.outcome == Outcome.DELIVERED, outcome=sent.outcome,
                     http_status=sent.status_code, error=sent.error,
                     duration_ms=round((time.monotonic() - started) * 1000))
