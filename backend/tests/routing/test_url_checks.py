"""A test ping or test post to a buyer's URL (the console's buttons, the buyer portal's URL changes):
what counts as passing, what the buyer receives (a lead marked as a test, nobody's data, signed
with every secret in force), and the worker's rules on where it may go."""

from __future__ import annotations

from datetime import timedelta

import pytest
from buyer_receivers import BuyerReceiver
from delivery_receivers import started_receivers
from standardwebhooks.webhooks import WebhookVerificationError
from webhook_checks import verified

from servicematch.kernel.clock import utcnow
from servicematch.outbound.signing import new_webhook_secret
from servicematch.routing.models import Buyer
from servicematch.routing.url_checks import SAMPLE_CONTACT, check_ping, check_post
from servicematch.settings import Settings

REAL_LOOKING = ("Maria", "Garcia", "5125550", "Congress")


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(environment="test", database_url=f"sqlite:///{tmp_path / 'unused.db'}", ping_timeout_ms=500,
                    post_timeout_ms=1500, worker_enabled=False)


@pytest.fixture
def buyers():
    yield from started_receivers(BuyerReceiver)


def a_buyer(receiver: BuyerReceiver, **columns) -> Buyer:
    """A buyer as routing reads it; never stored: the checks read nothing else."""
    values = {"id": "buyer-1", "name": "Test Buyer", "post_url": receiver.post_url, "ping_url": receiver.ping_url,
              "exclusive": False, "secret": new_webhook_secret(), "previous_secret": None,
              "previous_secret_until": None, "bid_floor_cents": None}
    return Buyer(**{**values, **columns})


@pytest.mark.parametrize(("answer", "cents", "reason"), [
    ({"bid": 12.5}, 1250, None),
    ({"bid": None}, None, "no bid"),
    ({"bid": 0}, None, "bid is not positive"),
])
def test_a_2xx_with_a_bid_or_a_clear_pass_passes(buyers, settings, answer, cents, reason):
    receiver = buyers(ping_answer=answer)
    checked = check_ping(a_buyer(receiver), receiver.ping_url, settings)
    assert (checked.ok, checked.cents, checked.reason, checked.http_status) == (True, cents, reason, 200)
    assert checked.url == receiver.ping_url and checked.duration_ms >= 0


@pytest.mark.parametrize(("script", "reason"), [
    ({"ping_answer": b"<html>hello</html>"}, "answer is not JSON"),
    ({"ping_answer": {"price": 12}}, 'answer has no "bid"'),
    ({"ping_answer": {"bid": "twelve"}}, "bid is not a number"),
    ({"ping_status": 500}, "HTTP 500"),
    ({"ping_status": 302}, "HTTP 302"),
])
def test_an_error_or_an_unreadable_answer_fails(buyers, settings, script, reason):
    receiver = buyers(**script)
    checked = check_ping(a_buyer(receiver), receiver.ping_url, settings)
    assert checked.ok is False and checked.cents is None and checked.reason == reason


def test_an_answer_after_the_ping_deadline_fails(buyers, settings):
    receiver = buyers(ping_delay=1.5)
    checked = check_ping(a_buyer(receiver), receiver.ping_url, settings)
    assert checked.ok is False and checked.http_status is None and checked.reason


def test_the_ping_is_a_test_with_made_up_facts_signed_with_every_secret_in_force(buyers, settings):
    receiver = buyers()
    old, new = new_webhook_secret(), new_webhook_secret()
    buyer = a_buyer(receiver, secret=new, previous_secret=old, previous_secret_until=utcnow() + timedelta(hours=1))
    # The URL tried is the one given, not the buyer's own (a new URL is tested before it is saved).
    elsewhere = buyers()
    assert check_ping(buyer, elsewhere.ping_url, settings).ok
    assert receiver.pings == []
    [ping] = elsewhere.pings
    assert ping.json["test"] is True and ping.json["type"] == "lead.ping"
    assert verified(ping, secret=new) == verified(ping, secret=old)
    with pytest.raises(WebhookVerificationError):
        verified(ping, secret=new_webhook_secret())


def test_a_post_passes_on_a_2xx_only(buyers, settings):
    taker, refuser, failing = buyers(), buyers(post_status=409), buyers(post_status=503)
    assert check_post(a_buyer(taker), taker.post_url, settings).ok
    refused = check_post(a_buyer(refuser), refuser.post_url, settings)
    assert (refused.ok, refused.http_status, refused.outcome) == (False, 409, "rejected")
    assert check_post(a_buyer(failing), failing.post_url, settings).ok is False


def test_the_post_is_marked_as_a_test_and_carries_nobodys_details(buyers, settings):
    receiver = buyers()
    old = new_webhook_secret()
    buyer = a_buyer(receiver, previous_secret=old, previous_secret_until=utcnow() - timedelta(seconds=1))
    assert check_post(buyer, receiver.post_url, settings).ok
    [post] = receiver.posts
    body = post.json
    assert body["test"] is True and body["istest"] == "Y"
    assert body["consumer"]["phone"] == SAMPLE_CONTACT["phone"] and body["consent"]["text"].startswith("TEST ONLY")
    assert not any(word in post.body.decode() for word in REAL_LOOKING)
    # The overlap is over: only the buyer's current secret signs.
    assert verified(post, secret=buyer.secret)
    with pytest.raises(WebhookVerificationError):
        verified(post, secret=old)


def test_plain_http_is_refused_without_a_request_where_private_webhooks_are_not_allowed(buyers, settings):
    receiver = buyers()
    strict = settings.model_copy(update={"allow_private_webhooks": False})
    ping = check_ping(a_buyer(receiver), receiver.ping_url, strict)
    post = check_post(a_buyer(receiver), receiver.post_url, strict)
    assert not ping.ok and "not https" in ping.reason
    assert not post.ok and "not https" in post.error
    assert receiver.pings == [] and receiver.posts == []
