"""GET /api/leads/{requestId}/status: only with the submit answer's token, under way until routing
has decided and every delivery to a company has settled, then exactly who received the details."""

from __future__ import annotations

import uuid

import pytest
from buyer_receivers import BuyerReceiver
from delivery_receivers import HttpReceiver
from delivery_support import form_submission

from servicematch.intake.status_token import status_token
from servicematch.kernel.clock import utcnow
from servicematch.privacy.models import LeadRevocation
from servicematch.routing import buyers as directory
from servicematch.routing.stage import route_pending

BUYER_NAME = "Acme Home Quotes LLC"
NOBODY = {"finished": True, "companies": [], "ratings": [], "offered": 0}


@pytest.fixture
def settings(settings, request):
    return settings.model_copy(update={"buyer_name": BUYER_NAME, "ping_timeout_ms": 400,
                                       **getattr(request, "param", {})})


@pytest.fixture
def receivers():
    started: list = []

    def start(receiver):
        started.append(receiver.start())
        return receiver

    yield start
    for receiver in started:
        receiver.stop()


def read_status(client, request_id: str, token: str | bytes | None):
    return client.get(f"/api/leads/{request_id}/status", headers={} if token is None else {"X-Status-Token": token})


def status_of(client, settings, lead) -> dict:
    answer = read_status(client, lead.request_id, status_token(settings, lead.id))
    assert answer.status_code == 200, answer.text
    assert answer.headers["Cache-Control"] == "no-store"
    return answer.json()


def test_only_the_submit_answers_token_reads_the_status_and_nothing_tells_why_not(client, app):
    service = app.state.catalog.find("hvac", "services")
    accepted = client.post("/api/submit-form", json=form_submission(
        service, request_id=str(uuid.uuid4()), phone="5125550161")).json()
    other = client.post("/api/submit-form", json=form_submission(
        service, request_id=str(uuid.uuid4()), phone="5125550162")).json()

    found = read_status(client, accepted["requestId"], accepted["statusToken"])
    assert found.status_code == 200 and found.headers["Cache-Control"] == "no-store"
    refusals = [read_status(client, accepted["requestId"], None),
                read_status(client, accepted["requestId"], ""),
                read_status(client, accepted["requestId"], accepted["statusToken"][:-2]),
                read_status(client, accepted["requestId"], other["statusToken"]),
                read_status(client, accepted["requestId"], "ünïcode-token".encode()),
                read_status(client, "no-such-request", accepted["statusToken"])]
    assert {(r.status_code, r.text, r.headers["Cache-Control"]) for r in refusals} == {
        (404, '{"error":"No such request.","fields":{}}', "no-store")}
    # The token travels in a header: the request's address carries only the requestId.
    assert accepted["statusToken"] not in str(found.url)


def test_a_lead_is_under_way_until_routed_and_its_deliveries_settled_then_names_who_received_it(
        client, app, settings, worker, receiver):
    service = app.state.catalog.find("hvac", "services")
    accepted = client.post("/api/submit-form", json=form_submission(
        service, request_id=str(uuid.uuid4()), phone="5125551163")).json()

    def status() -> dict:
        return read_status(client, accepted["requestId"], accepted["statusToken"]).json()

    under_way = {"reference": accepted["reference"], "finished": False, "companies": [], "ratings": [],
                 "recipients": [], "service": "HVAC", "offered": 0, "receiptEmail": True, "review": "none"}
    assert status() == under_way  # stored, not yet routed
    route_pending(session_factory=app.state.session_factory, settings=settings)
    assert status() == under_way  # decided, but the buyer's post is still being sent
    worker.run_until_idle()
    assert status() == {**under_way, "finished": True, "companies": [BUYER_NAME],
                        "recipients": [{"name": BUYER_NAME, "kind": "buyer", "licenceChecked": False}]}
    assert len(receiver.requests) == 1


# No SMTP server: a provider with a webhook gets the lead by its webhook alone.
@pytest.mark.parametrize("settings", [{"smtp_host": ""}], indirect=True, ids=["webhooks only"])
def test_a_company_that_refused_the_lead_is_not_named(make_lead, client, settings, worker, receiver, receivers,
                                                      add_provider):
    receiver.mode = "reject"  # the fixed buyer says no
    taking, refusing = receivers(HttpReceiver()), receivers(HttpReceiver(mode="reject"))
    add_provider("Cool Air", webhook_url=taking.url)
    add_provider("Said No Hvac", webhook_url=refusing.url)
    lead = make_lead()
    worker.run_until_idle()

    assert len(refusing.requests) == 1 and len(receiver.requests) == 1
    assert status_of(client, settings, lead) == {**NOBODY, "companies": ["Cool Air"], "receiptEmail": False,
                                                 "recipients": [{"name": "Cool Air", "kind": "provider",
                                                                 "licenceChecked": False}], "service": "HVAC",
                                                 "reference": f"{lead.reference[:4]}-{lead.reference[4:]}",
                                                 "review": "none"}


def test_an_auction_buyer_is_named_only_when_it_took_its_post(make_lead, client, settings, worker, receivers,
                                                              session_factory):
    refuser = receivers(BuyerReceiver(ping_answer={"bid": 50}, post_status=409))
    taker = receivers(BuyerReceiver(ping_answer={"bid": 30}))
    with session_factory() as session:
        for name, buyer in (("Refuser", refuser), ("Taker", taker)):
            directory.add_buyer(session, directory.BuyerTerms(name=name, post_url=buyer.post_url,
                                                              ping_url=buyer.ping_url), allow_private=True)
        session.commit()
    lead = make_lead()
    worker.run_until_idle()

    # The refuser got the lead post, then the notice to discard it (an event: it has a "type").
    assert len([post for post in refuser.posts if "type" not in post.json]) == len(taker.posts) == 1
    status = status_of(client, settings, lead)
    assert (status["finished"], status["companies"]) == (True, [BUYER_NAME, "Taker"])


def test_each_company_is_said_to_be_a_buyer_or_a_provider_with_its_licence_check(
        make_lead, client, settings, worker, receiver, add_provider):
    add_provider("Cool Air", verified_at=utcnow(), licence_number="TACLA12345", licence_state="TX")
    add_provider("Lone Star Heating")
    lead = make_lead()
    worker.run_until_idle()

    status = status_of(client, settings, lead)
    assert status["companies"] == [BUYER_NAME, "Cool Air", "Lone Star Heating"]
    assert status["recipients"] == [{"name": BUYER_NAME, "kind": "buyer", "licenceChecked": False},
                                    {"name": "Cool Air", "kind": "provider", "licenceChecked": True},
                                    {"name": "Lone Star Heating", "kind": "provider", "licenceChecked": False}]
    assert status["service"] == "HVAC"


def test_a_duplicate_goes_to_nobody_and_says_so(make_lead, client, settings, worker, receiver, add_provider):
    add_provider("Cool Air")
    first = make_lead(phone="5125551164", email="maria.garcia@example.com")
    again = make_lead(phone="5125551164", email="maria.garcia@example.com")
    worker.run_until_idle()

    assert again.is_duplicate and status_of(client, settings, first)["companies"] == [BUYER_NAME, "Cool Air"]
    status = status_of(client, settings, again)
    assert {key: status[key] for key in ("finished", "companies", "ratings", "offered", "receiptEmail")} == {**NOBODY, "receiptEmail": True}


def test_a_do_not_sell_lead_no_provider_serves_goes_to_nobody(make_lead, client, settings, worker, receiver):
    lead = make_lead(do_not_sell=True)
    worker.run_until_idle()

    assert receiver.requests == []
    status = status_of(client, settings, lead)
    assert {key: status[key] for key in ("finished", "companies", "ratings", "offered", "receiptEmail")} == {
        **NOBODY, "receiptEmail": False}


def test_a_lead_stopped_before_routing_goes_to_nobody_and_promises_no_mail(app, make_lead, client, settings, worker,
                                                                          receiver, session_factory):
    new = make_lead(store=False, email="maria.garcia@example.com")
    lead = app.state.lead_store.transactions.store_one(new).lead
    with session_factory() as session:
        session.add(LeadRevocation(lead_id=lead.id, method="stop link"))
        session.commit()
    route_pending(session_factory=session_factory, settings=settings)
    worker.run_until_idle()

    assert receiver.requests == []
    status = status_of(client, settings, lead)
    assert {key: status[key] for key in ("finished", "companies", "ratings", "offered", "receiptEmail")} == {
        **NOBODY, "receiptEmail": False}
