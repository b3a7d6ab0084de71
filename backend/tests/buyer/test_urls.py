"""A buyer's new ping or post URL takes effect only after a test to it succeeds: the test's answer is
shown either way, nothing is saved when one fails, and a saved change is on the audit log."""

from __future__ import annotations

import pytest
from delivery_receivers import started_receivers
from routing.buyer_receivers import BuyerReceiver

from servicematch.routing.models import Buyer

OLD_PING, OLD_POST = "https://buyer.example/ping", "https://buyer.example/leads"


@pytest.fixture
def buyers():
    yield from started_receivers(BuyerReceiver)


def urls_of(app, buyer_id: str) -> tuple[str | None, str]:
    with app.state.session_factory() as session:
        buyer = session.get(Buyer, buyer_id)
        return buyer.ping_url, buyer.post_url


@pytest.fixture
def ping_buyer(make_buyer):
    return lambda **terms: make_buyer(ping_url=OLD_PING, price_cents=None, **terms)


def test_new_urls_that_answer_their_tests_are_saved_and_logged(app, ping_buyer, buyer_browser, buyers):
    receiver = buyers(ping_answer={"bid": None})
    browser = buyer_browser(ping_buyer())
    answer = browser.post("/api/buyer/settings/urls", json={"pingUrl": receiver.ping_url,
                                                            "postUrl": receiver.post_url})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["settings"]["pingUrl"], body["settings"]["postUrl"]) == (receiver.ping_url, receiver.post_url)
    ping, post = body["tests"]
    assert (ping["kind"], ping["url"], ping["ok"], ping["httpStatus"]) == ("ping", receiver.ping_url, True, 200)
    assert ping["error"] == "no bid" and ping["durationMs"] >= 0  # a clear pass answers the test
    assert (post["kind"], post["ok"], post["httpStatus"], post["error"]) == ("post", True, 200, None)
    assert urls_of(app, browser.buyer_id) == (receiver.ping_url, receiver.post_url)
    # The tests are marked as tests, and nobody's data.
    assert receiver.pings[0].json["test"] is True
    assert receiver.posts[0].json["test"] is True and receiver.posts[0].json["istest"] == "Y"
    [entry] = browser.get("/api/buyer/audit").json()["items"]
    assert (entry["action"], entry["who"]) == ("buyer.urls.change", browser.person.email)
    assert entry["detail"] == {"pingUrl": [OLD_PING, receiver.ping_url], "postUrl": [OLD_POST, receiver.post_url]}


@pytest.mark.parametrize(("script", "field", "reason"), [
    ({"ping_answer": b"<html>ok</html>"}, "pingUrl", "answer is not JSON"),
    ({"ping_status": 500}, "pingUrl", "HTTP 500"),
    ({"post_status": 404}, "postUrl", "HTTP 404"),
])
def test_a_failed_test_saves_nothing_and_says_what_it_got(app, ping_buyer, buyer_browser, buyers, script, field,
                                                          reason):
    receiver = buyers(**script)
    browser = buyer_browser(ping_buyer())
    answer = browser.post("/api/buyer/settings/urls", json={"pingUrl": receiver.ping_url,
                                                            "postUrl": receiver.post_url})
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert list(body["fields"]) == [field] and reason in body["fields"][field] and body["error"]
    failed = [test for test in body["tests"] if not test["ok"]]
    assert [test["kind"] for test in failed] == [field.removesuffix("Url")] and failed[0]["error"] == reason
    assert len(body["tests"]) == 2
    assert urls_of(app, browser.buyer_id) == (OLD_PING, OLD_POST)
    assert browser.get("/api/buyer/audit").json()["items"] == []


def test_a_key_changes_a_url_too_and_one_url_alone_is_tested_alone(app, make_buyer, key_client, buyers):
    receiver = buyers()
    buyer_id = make_buyer()
    answer = key_client(buyer_id).post("/api/buyer/v1/settings/urls", json={"postUrl": receiver.post_url})
    assert answer.status_code == 200, answer.text
    assert [test["kind"] for test in answer.json()["tests"]] == ["post"] and receiver.pings == []
    assert urls_of(app, buyer_id) == (None, receiver.post_url)


@pytest.mark.parametrize(("change", "field"), [
    ({}, "pingUrl"),
    ({"postUrl": "ftp://buyer.example/leads"}, "postUrl"),
    ({"postUrl": "not a url"}, "postUrl"),
    ({"postUrl": None}, "postUrl"),
    ({"pingUrl": ""}, "pingUrl"),
    ({"postUrl": "https://buyer.example/" + "x" * 2000}, "postUrl"),
    ({"colour": "red"}, "colour"),
])
def test_a_bad_url_is_refused_before_any_test(app, ping_buyer, buyer_browser, buyers, change, field):
    receiver = buyers()
    browser = buyer_browser(ping_buyer())
    answer = browser.post("/api/buyer/settings/urls", json=change)
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"]
    assert receiver.pings == [] and receiver.posts == []
    assert urls_of(app, browser.buyer_id) == (OLD_PING, OLD_POST)


def test_a_fixed_price_buyer_cannot_start_bidding_by_ping_here(app, make_buyer, buyer_browser, buyers):
    receiver = buyers()
    browser = buyer_browser(make_buyer())
    answer = browser.post("/api/buyer/settings/urls", json={"pingUrl": receiver.ping_url})
    assert answer.status_code == 422 and answer.json()["tests"] == [] and "pingUrl" in answer.json()["fields"]
    assert receiver.pings == [] and urls_of(app, browser.buyer_id) == (None, OLD_POST)


def test_a_locked_url_is_refused_by_name_without_a_test(app, ping_buyer, buyer_browser, buyers):
    receiver = buyers()
    browser = buyer_browser(ping_buyer(locked_fields=["postUrl"]))
    answer = browser.post("/api/buyer/settings/urls", json={"postUrl": receiver.post_url})
    assert answer.status_code == 403
    assert answer.json()["fields"] == {"postUrl": "Locked by ServiceMatch: ask your account manager"}
    assert receiver.posts == [] and urls_of(app, browser.buyer_id) == (OLD_PING, OLD_POST)
    # The ping URL is not locked.
    assert browser.post("/api/buyer/settings/urls", json={"pingUrl": receiver.ping_url}).status_code == 200


def test_where_private_webhooks_are_not_allowed_a_plain_http_url_is_refused(app, ping_buyer, buyer_browser, buyers):
    receiver = buyers()
    app.state.settings = app.state.settings.model_copy(update={"allow_private_webhooks": False})
    browser = buyer_browser(ping_buyer())
    answer = browser.post("/api/buyer/settings/urls", json={"postUrl": receiver.post_url})
    assert answer.status_code == 422 and "https" in answer.json()["fields"]["postUrl"]
    assert receiver.posts == []
