"""Accept one submission: replay an identical earlier request, or verify, check, build and store a new lead.

The routers parse and look up the service; everything from the idempotency key to the commit
happens here, in this order, whichever form the lead came from.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime

from fastapi.concurrency import run_in_threadpool

from servicematch.kernel.crypto import cipher_for
from servicematch.settings import Settings

from . import recaptcha
from .checks import CheckedLead
from .consent import ConsentEvidence
from .schemas import Click
from .service import NewLead, StoredLead, build_lead, fingerprint
from .store import LeadStore

# The submission's key for the form's report on how it was filled (schemas.FormSignals).
FORM_SIGNALS = "formSignals"


@dataclass(frozen=True)
class Submission:
    """A parsed submission: its JSON body (for the fingerprint), and how to check it against the catalogue."""

    body: dict
    recaptcha_token: str | None
    click: Click
    is_test: bool
    check: Callable[[date], CheckedLead]


@dataclass(frozen=True)
class Sender:
    """What the server observed about the request (never what the browser claims about itself)."""

    ip: str
    user_agent: str
    global_privacy_control: bool


async def accept(*, store: LeadStore, settings: Settings, submission: Submission, sender: Sender) -> StoredLead:
    """The stored lead for this submission (or the earlier one its requestId names).

    A coroutine: checking and encrypting a lead is a fraction of a millisecond of CPU, done on
    the event loop; what blocks (reCAPTCHA's HTTP call, a database read) goes to the thread
    pool, and storing waits on the lead store without holding a thread.
    """
    request_id = submission.body["requestId"]
    # The form's timing differs on every try of the same answers: it is no part of the request.
    request_hash = fingerprint({key: value for key, value in submission.body.items() if key != FORM_SIGNALS})
    recaptcha_score = None
    if recaptcha.is_enabled(settings):
        # A replay's token was single-use, so answer it before asking reCAPTCHA again. Without
        # reCAPTCHA the unique requestId settles replays as the lead is stored, one query cheaper.
        earlier = await run_in_threadpool(store.transactions.find_replay, request_id=request_id,
                                          request_hash=request_hash)
        if earlier is not None:
            return earlier
        recaptcha_score = await run_in_threadpool(recaptcha.verify, settings=settings,
                                                  token=submission.recaptcha_token, remote_ip=sender.ip)
    checked = submission.check(datetime.now(UTC).date())
    click = submission.click
    lead = build_lead(settings=settings, checked=checked, request_id=request_id, request_hash=request_hash,
                      is_test=submission.is_test, click=click.model_dump(),
                      do_not_sell=sender.global_privacy_control)
    # What the quality gate (servicematch.quality, in routing) weighs besides the answers.
    address = address_key(checked.contact)
    lead.address_hash = cipher_for(settings).lookup_hash("address", address) if address else None
    lead.quality_signals = quality_signals(submission.body.get(FORM_SIGNALS), recaptcha_score)
    evidence = ConsentEvidence(
        ip_address=sender.ip, user_agent=sender.user_agent, page_url=click.domain_url,
        trustedform_cert_url=click.trustedform, global_privacy_control=sender.global_privacy_control,
    )
    return await store.store(NewLead(lead=lead, evidence=evidence))


# Spellings of one street address reduced to one (USPS abbreviations), so "500 Congress Avenue"
# and "500 congress ave." are the same address to the velocity check.
_STREET_WORDS = {
    "street": "st", "avenue": "ave", "av": "ave", "road": "rd", "drive": "dr", "boulevard": "blvd", "lane": "ln",
    "court": "ct", "place": "pl", "parkway": "pkwy", "highway": "hwy", "circle": "cir", "terrace": "ter",
    "trail": "trl", "square": "sq", "north": "n", "south": "s", "east": "e", "west": "w", "northeast": "ne",
    "northwest": "nw", "southeast": "se", "southwest": "sw",
}
_WORD = re.compile(r"[a-z0-9]+")


def address_key(contact: dict[str, str]) -> str | None:
    """The street address and ZIP (else city and state) in one spelling; None without a street.
    The unit (address2) is left out: several leads from one building in minutes count too."""
    words = [_STREET_WORDS.get(word, word) for word in _WORD.findall(contact.get("address1", "").lower())]
    if not words:
        return None
    place = contact.get("zip") or f"{contact.get('city', '').strip().lower()},{contact.get('state', '')}"
    return f"{' '.join(words)}|{place}"


def quality_signals(reported: dict | None, recaptcha_score: float | None) -> dict | None:
    """What the lead keeps for the quality gate (Lead.quality_signals): the form's own report, reduced
    to what the gate reads (whether the honeypot was filled, not what a bot typed), and reCAPTCHA's
    score; None when there is neither."""
    kept: dict = {}
    if reported:
        if reported.get("secondsOnForm") is not None:
            kept["form_seconds"] = round(float(reported["secondsOnForm"]), 1)
        if reported.get("tabId"):
            kept["tab_id"] = reported["tabId"]
        kept["honeypot"] = bool((reported.get("honeypot") or "").strip())
    if recaptcha_score is not None:
        kept["recaptcha_score"] = recaptcha_score
    return kept or None
