"""Pings: a lead's non-personal facts to every qualifying buyer at once, and their bids.

A ping carries what a buyer needs to price a lead and nothing that identifies the consumer:
never a name, e-mail, phone, street or date of birth. Whatever a buyer answers that is not a
clear bid within the deadline ({"bid": 31.50}, dollars) is a pass, logged, never an error; so is
a bid under the buyer's own floor (its portal's bid floor), with that reason.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable
from concurrent.futures import wait
from dataclasses import dataclass

from servicematch.catalog.partners import listed, not_listed_reason
from servicematch.intake.models import Lead
from servicematch.intake.payload import quality_of
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.kernel.ids import new_id
from servicematch.outbound.http_sender import encode_body, signed_headers
from servicematch.outbound.loop_sender import WORKER_TOO_BUSY, LoopRequest, LoopSender
from servicematch.outbound.outcome import SendResult
from servicematch.outbound.signing import overlap_secrets
from servicematch.routing.models import Buyer

log = logging.getLogger("servicematch.routing")


@dataclass(frozen=True)
class Bid:
    """A buyer's answer: cents when it bid, else why it passed; `at_ms` from the lead's commit."""

    buyer_id: str
    cents: int | None
    exclusive: bool
    at_ms: int
    pinged: bool
    detail: str | None = None


def ping_body(*, lead: Lead, ping_id: str, exclusive: bool) -> dict:
    """What a buyer is pinged with: the facts of the lead, no personal data."""
    consent = lead.consent
    age = max(0, int((utcnow() - as_utc(lead.created_at)).total_seconds())) if lead.created_at else 0
    return {
        "type": "lead.ping",
        "pingId": ping_id,
        "vertical": lead.vertical,
        "service": lead.service,
        "category": lead.category,
        "state": lead.state or "",
        "zip": lead.zip or "",
        # Choice answers only: date of birth and free text live in the encrypted personal data.
        "answers": dict(lead.answers or {}),
        "consent": bool(consent and consent.consent_text),
        "globalPrivacyControl": bool(consent and consent.global_privacy_control),
        "doNotSell": bool(lead.do_not_sell),
        "leadAgeSeconds": age,
        "exclusive": exclusive,
        "test": bool(lead.is_test),
        # The quality gate's score (0-100) and reason codes (docs/quality.md).
        "quality": quality_of(lead),
    }


# A 2xx whose answer says neither a bid nor a pass: what a URL check (routing/url_checks.py) fails on.
NOT_JSON = "answer is not JSON"
NO_BID_KEY = 'answer has no "bid"'
NOT_A_NUMBER = "bid is not a number"
UNREADABLE = (NOT_JSON, NO_BID_KEY, NOT_A_NUMBER)


def read_bid(status_code: int | None, body: str | None, *, max_cents: int,
             floor_cents: int | None = None) -> tuple[int | None, str | None]:
    """(cents, None) for a bid, or (None, why) for a pass; a bid under `floor_cents` (the buyer's
    bid floor) is a pass too."""
    if status_code is None or not 200 <= status_code < 300:
        return None, f"HTTP {status_code}" if status_code else "no answer"
    try:
        answer = json.loads(body or "", parse_constant=_no_constants)
    except (ValueError, RecursionError):
        return None, NOT_JSON
    if not isinstance(answer, dict) or "bid" not in answer:
        return None, NO_BID_KEY
    bid = answer["bid"]
    if bid is None:
        return None, "no bid"
    if isinstance(bid, bool) or not isinstance(bid, int | float) or not math.isfinite(bid):
        return None, NOT_A_NUMBER
    if bid <= 0:
        return None, "bid is not positive"
    cents = round(bid * 100)
    if cents > max_cents:
        return None, f"bid {bid:.2f} is above the most accepted ({max_cents / 100:.2f})"
    if floor_cents and cents < floor_cents:
        return None, f"below your bid floor of ${floor_cents / 100:,.2f}"
    return cents, None


def _no_constants(name: str):
    raise ValueError(f"{name} is not a number")


NOT_PINGED_IN_TIME = "not pinged in time: this worker was too busy (our delay, not the buyer's)"


def lost_to_our_delay(bid: Bid) -> bool:
    """The buyer passed for no fault of its own: its ping was not sent, or its answer not read, in
    time because this worker was too busy."""
    return bid.cents is None and bid.detail in (NOT_PINGED_IN_TIME, WORKER_TOO_BUSY)


# However busy the worker, an auction waits at most this many ping deadlines for its pings to be
# sent and answered; a ping its event loop did not even start by then is our delay, never the
# buyer's pass.
MOST_DEADLINES_WAITED = 3


def run_pings(*, lead: Lead, buyers: list[Buyer], sender: LoopSender, timeout_ms: int, max_bid_cents: int,
              since: Callable[[], int], partners: frozenset[str]) -> list[Bid]:
    """Ping every buyer with a ping URL at once, return as soon as all have answered or passed;
    fixed-price buyers bid their price without a ping.

    The pings of every lead being routed are in flight together on the sender's event loop, and
    each ping's deadline runs from its own send, so time it waited for the loop is never charged
    to the buyer. `partners`: the names on the marketing-partners list the consumer saw; a buyer
    not on it is neither pinged nor bids (a pass with the reason), so it can never be posted the lead."""
    timeout = timeout_ms / 1000
    bids: list[Bid] = []
    asked: list[Buyer] = []
    requests: list[LoopRequest] = []
    for buyer in buyers:
        if not listed(buyer.name, partners):
            version = lead.consent.partner_list_version if lead.consent else None
            log.info("buyer %s skipped for lead %s: not on partner list %s", buyer.id, lead.id, version)
            bids.append(Bid(buyer.id, None, buyer.exclusive, since(), pinged=False,
                            detail=not_listed_reason(version)))
            continue
        if not buyer.ping_url:
            bids.append(Bid(buyer.id, buyer.price_cents, buyer.exclusive, since(), pinged=False,
                            detail="fixed price"))
            continue
        asked.append(buyer)
        requests.append(ping_request(buyer, lead, timeout))
    futures = sender.send_all(requests)
    done, _ = wait(futures, timeout=timeout * MOST_DEADLINES_WAITED)
    for future, buyer in zip(futures, asked):
        if future not in done:
            # Not started in time (or still under way at the very end): our delay, not the buyer's.
            future.cancel()
            log.warning("buyer %s not asked in time for lead %s: the worker was too busy", buyer.id, lead.id)
            bids.append(Bid(buyer.id, None, buyer.exclusive, since(), pinged=False, detail=NOT_PINGED_IN_TIME))
            continue
        try:
            status_code, answer, error = answer_of(future.result(), timeout)
        except Exception as exc:
            log.exception("ping to buyer %s failed", buyer.id)
            status_code, answer, error = None, None, f"{type(exc).__name__}"
        cents, why = read_bid(status_code, answer, max_cents=max_bid_cents, floor_cents=buyer.bid_floor_cents)
        if cents is None and error:
            why = error
        if cents is None:
            log.info("buyer %s passed on lead %s: %s", buyer.id, lead.id, why)
        bids.append(Bid(buyer.id, cents, buyer.exclusive, since(), pinged=True, detail=why))
    return bids


def ping_request(buyer: Buyer, lead: Lead, timeout: float) -> LoopRequest:
    """A buyer's signed ping for the lead, with a new ping id (its webhook-id and idempotency key)."""
    ping_id = new_id()
    body = encode_body(ping_body(lead=lead, ping_id=ping_id, exclusive=buyer.exclusive))
    timestamp = int(time.time())
    headers = signed_headers(body=body, secret=buyer.secret, message_id=ping_id, idempotency_key=ping_id,
                             timestamp=timestamp, extra_secrets=overlap_secrets(
                                 buyer.previous_secret, buyer.previous_secret_until, timestamp=timestamp))
    return LoopRequest(url=buyer.ping_url, body=body, headers=headers, timeout=timeout)


def answer_of(result: SendResult, timeout: float) -> tuple[int | None, str | None, str | None]:
    """(status, answer, why it is no answer): a timeout is the buyer's pass, and so is a redirect;
    a deadline the worker itself was too busy to keep is not the buyer's."""
    error = None if result.status_code else (result.error or "no answer")
    if result.status_code is None and result.duration_ms >= timeout * 1000 * 0.95 and error != WORKER_TOO_BUSY:
        error = f"no answer within {round(timeout * 1000)} ms"
    if result.status_code and 300 <= result.status_code < 400:
        error = f"HTTP {result.status_code} redirect: not followed"
    return result.status_code, result.response_body, error
