"""Buyers from the console: the directory's rules, roles, test ping and test post against a local
receiver, recent bids, and a lead's auction as a waterfall."""

from __future__ import annotations

import pytest
from console_api_support import hvac_payload

from servicematch.routing import buyers as directory
from servicematch.routing.models import AuctionStep, StepKind

SECRET = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
NEW = {"name": "Bright Leads", "postUrl": "http://127.0.0.1:9/post", "price": 31.5, "services": ["hvac"],
       "states": ["tx"], "exclusive": True, "dailyCap": 20, "monthlyBudget": 1000,
       "hours": "Mon-Fri 08:00-18:00 America/Chicago"}


@pytest.fixture
def settings(settings):
    """Only the buyers of the buyers table: the fixed SERVICEMATCH_BUYER_URL buyer would take a seat."""
    return settings.model_copy(update={"buyer_url": ""})


def audit_actions(client) -> list[str]:
    return [entry["action"] for entry in client.get("/api/console/audit").json()["items"]]


def test_add_change_pause_resume_each_audited_and_the_secret_shown_only_on_creation(admin):
    created = admin.post("/api/console/buyers", json=NEW)
    assert created.status_code == 201, created.text
    buyer = created.json()
    assert buyer["secret"].startswith("whsec_")
    assert (buyer["mode"], buyer["exclusive"], buyer["price"], buyer["states"]) == ("fixed price", True, 31.5, ["TX"])
    assert (buyer["dailyCap"], buyer["monthlyBudget"], buyer["leadsToday"]) == (20, 1000.0, 0)

    changed = admin.patch(f"/api/console/buyers/{buyer['id']}", json={"pingUrl": "http://127.0.0.1:9/ping",
                                                                     "exclusive": False, "secret": SECRET})
    assert changed.status_code == 200, changed.text
    assert (changed.json()["mode"], changed.json()["exclusive"], changed.json()["name"]) == (
        "ping-post", False, "Bright Leads")
    assert admin.post(f"/api/console/buyers/{buyer['id']}/pause").json()["active"] is False
    assert admin.post(f"/api/console/buyers/{buyer['id']}/resume").json()["active"] is True

    listed = admin.get("/api/console/buyers")
    assert listed.status_code == 200
    [item] = listed.json()["items"]
    assert "secret" not in item and buyer["secret"] not in listed.text and SECRET not in listed.text
    assert audit_actions(admin)[:4] == ["buyer.resume", "buyer.pause", "buyer.change", "buyer.add"]
    assert SECRET not in admin.get("/api/console/audit").text


@pytest.mark.parametrize(("change", "field"), [
    ({"postUrl": "ftp://example.com/x"}, "postUrl"),
    ({"states": ["XX"]}, "states"),
    ({"zips": ["123"]}, "zips"),
    ({"hours": "whenever"}, "hours"),
    ({"secret": "not-a-secret"}, "secret"),
    ({"price": -3}, "price"),
    ({"monthlyBudget": "lots"}, "monthlyBudget"),
    ({"dailyCap": -1}, "dailyCap"),
    ({"name": ""}, "name"),
    ({"price": None}, "price"),  # neither a ping URL nor a price
    ({"colour": "red"}, "colour"),
])
def test_bad_input_is_a_422_naming_the_field_and_nothing_is_stored(admin, change, field):
    answer = admin.post("/api/console/buyers", json={**NEW, **change})
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"]
    assert admin.get("/api/console/buyers").json()["items"] == []


def test_a_bad_change_is_a_422_and_leaves_the_buyer_as_it_was(admin):
    buyer = admin.post("/api/console/buyers", json=NEW).json()
    answer = admin.patch(f"/api/console/buyers/{buyer['id']}", json={"postUrl": None})
    assert answer.status_code == 422 and "postUrl" in answer.json()["fields"]
    [listed] = admin.get("/api/console/buyers").json()["items"]
    assert listed["postUrl"] == NEW["postUrl"]


def test_unknown_buyers_are_404(admin):
    for path in ("pause", "resume", "test-ping", "test-post"):
        assert admin.post(f"/api/console/buyers/no-such-buyer/{path}").status_code == 404
    assert admin.patch("/api/console/buyers/no-such-buyer", json={"name": "x"}).status_code == 404
    assert admin.get("/api/console/buyers/no-such-buyer/bids").status_code == 404


def test_analysts_may_look_but_not_change(analyst, app, receiver):
    with app.state.session_factory() as session:
        buyer_id = directory.add_buyer(session, directory.BuyerTerms(
            name="Bright Leads", post_url=receiver.url, ping_url=receiver.url), allow_private=True).id
        session.commit()
    listed = analyst.get("/api/console/buyers")
    assert listed.status_code == 200 and listed.json()["items"][0]["name"] == "Bright Leads"
    assert analyst.get(f"/api/console/buyers/{buyer_id}/bids").status_code == 200
    refused = [
        analyst.post("/api/console/buyers", json=NEW),
        analyst.patch(f"/api/console/buyers/{buyer_id}", json={"name": "Mine now"}),
        *(analyst.post(f"/api/console/buyers/{buyer_id}/{action}")
          for action in ("pause", "resume", "test-ping", "test-post")),
    ]
    assert [answer.status_code for answer in refused] == [403] * 6
    assert receiver.received == []
    [after] = analyst.get("/api/console/buyers").json()["items"]
    assert (after["name"], after["active"]) == ("Bright Leads", True)


def test_changes_need_the_csrf_token(admin):
    token = admin.headers.pop("X-CSRF-Token")
    assert admin.post("/api/console/buyers", json=NEW).status_code == 403
    admin.headers["X-CSRF-Token"] = token
    assert admin.get("/api/console/buyers").json()["items"] == []


def test_a_test_ping_is_signed_carries_no_personal_data_and_shows_the_bid(admin, receiver):
    receiver.reply = b'{"bid": 27.25}'
    buyer = admin.post("/api/console/buyers", json={**NEW, "pingUrl": receiver.url, "price": None}).json()
    answer = admin.post(f"/api/console/buyers/{buyer['id']}/test-ping")
    assert answer.status_code == 200, answer.text
    result = answer.json()
    assert (result["outcome"], result["bid"], result["reason"], result["httpStatus"]) == ("bid", 27.25, None, 200)
    assert isinstance(result["durationMs"], int) and result["durationMs"] >= 0
    [ping] = receiver.received
    assert ping["body"]["type"] == "lead.ping" and ping["body"]["test"] is True
    assert (ping["body"]["service"], ping["body"]["state"]) == ("hvac", "TX")
    assert not {"first", "last", "email", "phone", "consumer"} & set(ping["body"])
    headers = {key.lower() for key in ping["headers"]}
    assert {"webhook-id", "webhook-timestamp", "webhook-signature"} <= headers
    assert audit_actions(admin)[0] == "buyer.test_ping"


@pytest.mark.parametrize(("status", "reply", "reason"), [
    (200, b"<html>not a bid</html>", "answer is not JSON"),
    (200, b'{"bid": "lots"}', "bid is not a number"),
    (200, b'{"bid": null}', "no bid"),
    (500, b"{}", "HTTP 500"),
])
def test_a_test_ping_answered_with_garbage_shows_why_it_is_a_pass(admin, receiver, status, reply, reason):
    receiver.status, receiver.reply = status, reply
    buyer = admin.post("/api/console/buyers", json={**NEW, "pingUrl": receiver.url}).json()
    result = admin.post(f"/api/console/buyers/{buyer['id']}/test-ping").json()
    assert (result["outcome"], result["bid"], result["reason"], result["httpStatus"]) == ("pass", None, reason, status)


def test_a_test_ping_to_nobody_listening_is_a_pass_not_an_error(admin):
    buyer = admin.post("/api/console/buyers", json={**NEW, "pingUrl": "http://127.0.0.1:9/ping"}).json()
    answer = admin.post(f"/api/console/buyers/{buyer['id']}/test-ping")
    assert answer.status_code == 200
    assert answer.json()["outcome"] == "pass" and answer.json()["httpStatus"] is None and answer.json()["reason"]


def test_a_fixed_price_buyer_has_nothing_to_ping(admin):
    buyer = admin.post("/api/console/buyers", json=NEW).json()
    answer = admin.post(f"/api/console/buyers/{buyer['id']}/test-ping")
    assert answer.status_code == 409 and "no ping URL" in answer.json()["error"]


def test_a_test_post_sends_a_sample_marked_as_a_test(admin, receiver):
    receiver.status = 201
    buyer = admin.post("/api/console/buyers", json={**NEW, "postUrl": receiver.url}).json()
    answer = admin.post(f"/api/console/buyers/{buyer['id']}/test-post")
    assert answer.status_code == 200, answer.text
    assert (answer.json()["outcome"], answer.json()["httpStatus"]) == ("delivered", 201)
    [post] = receiver.received
    body = post["body"]
    assert body["istest"] == "Y" and body["test"] is True and body["consumer"]["email"] == "test@example.com"
    assert body["consent"]["text"].startswith("TEST ONLY")
    assert "webhook-signature" in {key.lower() for key in post["headers"]}
    receiver.status = 409
    refused = admin.post(f"/api/console/buyers/{buyer['id']}/test-post").json()
    assert (refused["outcome"], refused["httpStatus"]) == ("rejected", 409)
    assert audit_actions(admin)[:2] == ["buyer.test_post", "buyer.test_post"]


def route_one_lead(admin, app, worker, receiver, *, bid: bytes, post_url: str | None = None) -> dict:
    receiver.reply = bid
    buyer = admin.post("/api/console/buyers", json={**NEW, "name": "Local Buyer", "pingUrl": receiver.url,
                                                    "postUrl": post_url or receiver.url, "price": None, "hours": None,
                                                    "dailyCap": None, "monthlyBudget": None}).json()
    submitted = admin.post("/api/submit-form", json=hvac_payload(app.state.catalog))
    assert submitted.status_code == 202, submitted.text
    worker.run_until_idle()
    [lead] = admin.get("/api/console/leads").json()["items"]
    return {"buyer": buyer, "lead": lead}


def test_a_routed_lead_shows_its_auction_as_a_waterfall_and_the_buyer_its_bid(admin, app, worker, receiver):
    routed = route_one_lead(admin, app, worker, receiver, bid=b'{"bid": 25}')
    detail = admin.get(f"/api/console/leads/{routed['lead']['id']}").json()
    steps = detail["auction"]
    kinds = [step["kind"] for step in steps]
    assert kinds == ["ping", "bid", "outcome", "post", "accepted", "closed"]
    assert [step["atMs"] for step in steps] == sorted(step["atMs"] for step in steps)
    by_kind = {step["kind"]: step for step in steps}
    assert by_kind["bid"]["buyer"] == "Local Buyer" and by_kind["bid"]["amount"] == 25.0
    assert by_kind["outcome"]["detail"] == "exclusive: Local Buyer"
    assert by_kind["accepted"]["detail"].startswith("HTTP 200")
    [post] = [d for d in detail["deliveries"] if d["recipient"] == "Local Buyer"]
    assert (post["channel"], post["status"]) == ("webhook", "delivered")

    [bid] = admin.get(f"/api/console/buyers/{routed['buyer']['id']}/bids").json()["items"]
    assert (bid["kind"], bid["amount"], bid["service"], bid["state"]) == ("bid", 25.0, "hvac", "TX")
    assert bid["leadId"] == routed["lead"]["id"] and bid["reason"] is None
    [listed] = admin.get("/api/console/buyers").json()["items"]
    assert (listed["leadsToday"], listed["spentThisMonth"]) == (1, 25.0)


def test_a_buyer_post_that_failed_is_listed_under_the_buyers_name(admin, app, worker, receiver):
    routed = route_one_lead(admin, app, worker, receiver, bid=b'{"bid": 25}', post_url="http://127.0.0.1:9/post")
    [failed] = admin.get("/api/console/deliveries").json()["items"]
    assert (failed["recipient"], failed["channel"], failed["leadId"]) == ("Local Buyer", "webhook",
                                                                          routed["lead"]["id"])
    kinds = [step["kind"] for step in admin.get(f"/api/console/leads/{routed['lead']['id']}").json()["auction"]]
    assert kinds == ["ping", "bid", "outcome", "post", "refused", "closed"]


def test_a_pass_shows_its_reason_in_the_recent_bids(admin, app, worker, receiver):
    routed = route_one_lead(admin, app, worker, receiver, bid=b"garbage")
    [bid] = admin.get(f"/api/console/buyers/{routed['buyer']['id']}/bids?limit=5").json()["items"]
    assert (bid["kind"], bid["amount"], bid["reason"]) == ("pass", None, "answer is not JSON")
    with app.state.session_factory() as session:
        assert session.query(AuctionStep).filter_by(kind=StepKind.POST).count() == 0


def test_a_lead_without_an_auction_has_an_empty_waterfall(admin, app, worker):
    admin.post("/api/submit-form", json=hvac_payload(app.state.catalog))
    [lead] = admin.get("/api/console/leads").json()["items"]
    assert admin.get(f"/api/console/leads/{lead['id']}").json()["auction"] == []


def test_the_published_partner_lists_are_listed_newest_first_with_the_buyers_names(analyst, app):
    before = analyst.get("/api/console/partner-lists").json()["items"]
    with app.state.session_factory() as session:
        directory.add_buyer(session, directory.BuyerTerms(name="Bright Leads", post_url="http://127.0.0.1:9/post",
                                                          price_cents=3150), allow_private=True)
        session.commit()

    listed = analyst.get("/api/console/partner-lists")
    assert listed.status_code == 200
    items = listed.json()["items"]
    assert len(items) == len(before) + 1
    newest = items[0]
    assert "Bright Leads" in newest["partners"] and newest["count"] == len(newest["partners"])
    assert newest["version"] != items[1]["version"] and newest["publishedAt"].endswith("Z")
    assert all("Bright Leads" not in item["partners"] for item in items[1:])
