"""Accept one submission: replay an identical earlier request, or verify, check, build and store a new lead.

The routers parse and look up the service; everything from the idempotency key to the commit
happens here, in this order, whichever form the lead came from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime

from fastapi.concurrency import run_in_threadpool

from servicematch.settings import Settings

from . import recaptcha
from .checks import CheckedLead
from .consent import ConsentEvidence
from .schemas import Click
from .service import NewLead, StoredLead, build_lead, fingerprint
from .store import LeadStore


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
    request_hash = fingerprint(submission.body)
    if recaptcha.is_enabled(settings):
        # A replay's token was single-use, so answer it before asking reCAPTCHA again. Without
        # reCAPTCHA the unique requestId settles replays as the lead is stored, one query cheaper.
        earlier = await run_in_threadpool(store.transactions.find_replay, request_id=request_id,
                                          request_hash=request_hash)
        if earlier is not None:
            return earlier
        await run_in_threadpool(recaptcha.verify, settings=settings, token=submission.recaptcha_token,
                                remote_ip=sender.ip)
    checked = submission.check(datetime.now(UTC).date())
    click = submission.click
    lead = build_lead(settings=settings, checked=checked, request_id=request_id, request_hash=request_hash,
                      is_test=submission.is_test, click=click.model_dump(),
                      do_not_sell=sender.global_privacy_control)
    evidence = ConsentEvidence(
        ip_address=sender.ip, user_agent=sender.user_agent, page_url=click.domain_url,
        trustedform_cert_url=click.trustedform, global_privacy_control=sender.global_privacy_control,
    )
    return await store.store(NewLead(lead=lead, evidence=evidence))
