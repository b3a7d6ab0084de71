"""Rotating the signing secret in the buyer portal: the new secret is shown once; for 24 hours every
ping, post and privacy notice to the buyer carries a second signature made with the old one, so a
receiver verifies with either; after that, only the new one signs. A receiver on this machine plays
the buyer and checks the requests as docs/buyer-api.md tells buyers to."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import pytest
from delivery_fixtures import clock, make_lead, worker  # noqa: F401 (fixtures)
from delivery_receivers import Received, started_receivers
from routing.buyer_receivers import BuyerReceiver
from sqlalchemy import select, update
from standardwebhooks.webhooks import WebhookVerificationError
from webhook_checks import verified

from servicematch.access.models import AuditEntry
from servicematch.kernel.clock import utcnow
from servicematch.outbound.signing import SIGNATURE_HEADER, verify_signature
from servicematch.routing.models import Buyer


@pytest.fixture
def buyers():
    yield from started_receivers(BuyerReceiver)


def secrets_of(app, buyer_id: str) -> tuple[str, str | None]:
    with app.state.session_factory() as session:
        buyer = session.get(Buyer, buyer_id)
        return buyer.secret, buyer.previous_secret


def rotate(browser) -> dict:
    answer = browser.post("/api/buyer/settings/secret")
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"
    return answer.json()


def signed_by(received: Received, secret: str, at) -> bool:
    """Whether a receiver holding only `secret` accepts the request, by either header."""
    try:
        verified(received, secret=secret, at=at)
    except WebhookVerificationError:
        standard = False
    else:
        standard = True
    legacy = verify_signature(secret=secret, body=received.body, header=received.headers[SIGNATURE_HEADER],
                              now=int(at.timestamp()))
    assert standard == legacy, "the two headers disagree"
    return standard


def test_a_new_secret_is_shown_once_and_the_old_one_keeps_verifying_for_24_hours(
        app, make_buyer, buyer_browser, caplog):
    buyer_id = make_buyer()
    old, _ = secrets_of(app, buyer_id)
    browser = buyer_browser(buyer_id)
    caplog.set_level(logging.DEBUG)
    before = utcnow()
    rotated = rotate(browser)
    new = rotated["secret"]
    assert new.startswith("whsec_") and new != old
    assert secrets_of(app, buyer_id) == (new, old)
    until = datetime.fromisoformat(rotated["previousValidUntil"])
    assert before + timedelta(hours=24) - timedelta(seconds=1) <= until <= utcnow() + timedelta(hours=24)
    settings = browser.get("/api/buyer/settings")
    assert settings.json()["secretOverlapUntil"] == rotated["previousValidUntil"]
    assert new not in settings.text and old not in settings.text
    [entry] = browser.get("/api/buyer/audit").json()["items"]
    assert (entry["action"], entry["who"]) == ("buyer.secret.rotate", browser.person.email)
    assert entry["detail"] == {"previousValidUntil": rotated["previousValidUntil"]}
    with app.state.session_factory() as session:
        logged = str([row.detail for row in session.scalars(select(AuditEntry))])
    assert new not in logged and old not in logged
    assert new not in caplog.text and old not in caplog.text


def test_a_key_cannot_rotate_the_secret(app, make_buyer, key_client):
    buyer_id = make_buyer()
    before = secrets_of(app, buyer_id)
    system = key_client(buyer_id)
    assert system.post("/api/buyer/settings/secret").status_code == 403
    assert system.post("/api/buyer/v1/settings/secret").status_code in (404, 405)
    assert secrets_of(app, buyer_id) == before


def test_a_second_rotation_keeps_only_the_secret_it_replaces(app, make_buyer, buyer_browser):
    buyer_id = make_buyer()
    browser = buyer_browser(buyer_id)
    first = rotate(browser)["secret"]
    second = rotate(browser)["secret"]
    assert secrets_of(app, buyer_id) == (second, first)


def test_pings_posts_and_notices_carry_both_signatures_during_the_overlap_and_only_the_new_one_after(
        app, make_buyer, buyer_browser, buyers, make_lead, worker, clock):  # noqa: F811 (the fixtures imported above)
    # The post is refused, so the buyer is sent a privacy notice (lead.discard) after it as well.
    receiver = buyers(ping_answer={"bid": 25}, post_status=409)
    buyer_id = make_buyer("Rotating Leads", ping_url=receiver.ping_url, post_url=receiver.post_url, price_cents=None,
                          exclusive=True)
    old, _ = secrets_of(app, buyer_id)
    new = rotate(buyer_browser(buyer_id))["secret"]

    make_lead()
    worker.run_until_idle()
    [ping] = receiver.pings
    [post, notice] = receiver.posts
    assert notice.json["type"] == "lead.discard" and "type" not in post.json
    for received in (ping, post, notice):
        assert len(received.headers["webhook-signature"].split(" ")) == 2
        assert signed_by(received, new, clock.now) and signed_by(received, old, clock.now)
        assert not signed_by(received, "whsec_" + "A" * 43, clock.now)

    # 24 hours later (the overlap's end moved to just now rather than the clocks a day on; a request's
    # time is in whole seconds).
    with app.state.session_factory() as session:
        session.execute(update(Buyer).where(Buyer.id == buyer_id).values(
            previous_secret_until=utcnow() - timedelta(seconds=2)))
        session.commit()
    assert buyer_browser(buyer_id).get("/api/buyer/settings").json()["secretOverlapUntil"] is None
    make_lead()
    worker.run_until_idle()
    later = [receiver.pings[-1], *receiver.posts[2:]]
    assert len(later) == 3
    for received in later:
        assert " " not in received.headers["webhook-signature"]
        assert signed_by(received, new, clock.now) and not signed_by(received, old, clock.now)
