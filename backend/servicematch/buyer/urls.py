"""A buyer's new ping or post URL takes effect only once a test to it succeeds.

The new ping URL gets a test ping, which must answer a 2xx with a bid or a clear pass, as an auction
reads it; the new post URL a test post, which must answer a 2xx. Both are the console's tests
(routing/url_checks.py): a made-up lead marked as a test, signed with the buyer's secrets. When
every test passes, the URLs are saved and the change is on the audit log; otherwise nothing is
saved and the answer says what each test got.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from servicematch.buyer import audit
from servicematch.buyer.auth import Caller
from servicematch.buyer.settings import BuyerSettings, portal_error, refuse_locked
from servicematch.errors import ServiceMatchError
from servicematch.routing import buyers as directory
from servicematch.routing.models import Buyer
from servicematch.routing.url_checks import check_ping, check_post
from servicematch.settings import Settings

NOTHING_SENT = "Send a new pingUrl, postUrl or both."
NOT_SAVED = "Nothing was saved: the new URL did not pass its test."


class UrlChanges(BaseModel):
    """The URLs to change; each is tested before anything is saved."""

    model_config = ConfigDict(extra="forbid")

    pingUrl: str | None = Field(default=None, max_length=2000)
    postUrl: str | None = Field(default=None, max_length=2000)


class UrlTest(BaseModel):
    """One test: a ping to the new ping URL or a post to the new post URL, and what it got."""

    kind: Literal["ping", "post"]
    url: str
    ok: bool
    httpStatus: int | None
    durationMs: int | None
    error: str | None = Field(description="Why the test failed (or, for a ping, why it was a pass); null if not")


class UrlChangeResult(BaseModel):
    settings: BuyerSettings
    tests: list[UrlTest]


class UrlChangeRefused(BaseModel):
    """A URL that failed its test (or was not valid): nothing was saved."""

    error: str
    fields: dict[str, str]
    # Absent from a refusal of the body itself (not JSON, a field of the wrong type): nothing was tried.
    tests: list[UrlTest] = Field(default_factory=list)


def wanted_urls(buyer: Buyer, changes: UrlChanges, *, allow_private: bool) -> dict[str, str]:
    """The URLs sent, checked as routing checks any buyer's ({"pingUrl": ..., "postUrl": ...});
    422 for a bad one, 403 for one the operator locked. A fixed-price buyer has no ping URL to set:
    bidding by ping is a change of terms for its account manager."""
    sent = {name: getattr(changes, name) for name in sorted(changes.model_fields_set)}
    if not sent:
        raise ServiceMatchError(NOTHING_SENT, fields={"pingUrl": NOTHING_SENT}, status_code=422)
    if empty := [name for name, url in sent.items() if not (url or "").strip()]:
        raise ServiceMatchError("A URL cannot be removed here.", fields={name: "Enter the new URL" for name in empty},
                                status_code=422)
    if "pingUrl" in sent and not buyer.ping_url:
        raise ServiceMatchError("Your account buys at a fixed price, without pings: ask your account manager "
                                "to bid by ping.", fields={"pingUrl": "Only for buyers that bid by ping"},
                                status_code=422)
    sent = {name: url.strip() for name, url in sent.items()}
    current = {"pingUrl": buyer.ping_url, "postUrl": buyer.post_url}
    refuse_locked(buyer, [name for name, url in sent.items() if url != current[name]])
    terms = directory.terms_of(buyer)
    terms.ping_url, terms.post_url = sent.get("pingUrl", buyer.ping_url), sent.get("postUrl", buyer.post_url)
    try:
        directory.check_terms(terms, allow_private=allow_private)
    except ServiceMatchError as exc:
        raise portal_error(exc) from None
    return sent


def run_tests(buyer: Buyer, urls: dict[str, str], settings: Settings) -> list[UrlTest]:
    """A test ping to the new ping URL and a test post to the new post URL, one after the other."""
    tests = []
    if "pingUrl" in urls:
        ping = check_ping(buyer, urls["pingUrl"], settings)
        tests.append(UrlTest(kind="ping", url=ping.url, ok=ping.ok, httpStatus=ping.http_status,
                             durationMs=ping.duration_ms, error=None if ping.cents is not None else ping.reason))
    if "postUrl" in urls:
        post = check_post(buyer, urls["postUrl"], settings)
        error = None if post.ok else post.error or f"HTTP {post.http_status}"
        tests.append(UrlTest(kind="post", url=post.url, ok=post.ok, httpStatus=post.http_status,
                             durationMs=post.duration_ms, error=error))
    return tests


def refusal(tests: list[UrlTest]) -> UrlChangeRefused:
    """The 422's body: each failed test named under its field."""
    fields = {f"{test.kind}Url": f"The test {test.kind} failed: {test.error or 'no answer'}"
              for test in tests if not test.ok}
    return UrlChangeRefused(error=NOT_SAVED, fields=fields, tests=tests)


def save_urls(session: Session, caller: Caller, urls: dict[str, str], now) -> None:
    """Every test passed: the new URLs take effect with the next ping or post, on the log."""
    buyer = caller.buyer
    names = {"pingUrl": "ping_url", "postUrl": "post_url"}
    changed = {name: [getattr(buyer, names[name]), url] for name, url in urls.items()
               if url != getattr(buyer, names[name])}
    if changed:
        for name, (_old, url) in changed.items():
            setattr(buyer, names[name], url)
        buyer.updated_at = now
        audit.record(session, caller, audit.Action.URLS_CHANGE, changed)
