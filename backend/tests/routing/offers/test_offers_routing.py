"""Routing with offers: a provider in review mode gets an offer and a notice without contact
details, not the lead; seats, daily caps, weekly budgets, auto-accept and exclusive leads."""

from __future__ import annotations

import pytest
from offers_support import PERSONAL, deliveries_to, ledger_of, offers_of
from partners_support import with_fixed_buyer

from servicematch.delivery.models import DeliveryStatus, TargetKind
from servicematch.routing.models import OfferStatus
from servicematch.routing.pricing import EXCLUSIVE_FACTOR, LIST_PRICE_CENTS


def test_a_provider_in_review_mode_gets_an_offer_and_a_notice_without_contact_details(
        reviewer, make_lead, session_factory, worker, smtp, settings):
    pro = reviewer("Cool Air LLC")
    lead = make_lead(email="maria.garcia@example.com")

    offer = offers_of(session_factory, lead.id)[pro.provider_id]
    assert offer.status == OfferStatus.OPEN and offer.price_cents == LIST_PRICE_CENTS["services"]
    rows = deliveries_to(session_factory, lead.id, pro.provider_id)
    # The notice only: no lead delivery, so the consumer's details did not leave.
    assert [(row.kind, row.payload_kind) for row in rows] == [(TargetKind.PROVIDER_EMAIL, "offer")]

    worker.run_until_idle()
    notices = [content for recipients, content in smtp.messages if recipients == [pro.email]]
    assert len(notices) == 1
    notice = notices[0]
    assert f"{settings.site_origin}/pro/offers/{offer.id}" in notice
    assert "Austin, TX 78701" in notice and "$25.00" in notice
    for personal in PERSONAL:
        assert personal not in notice
    # The consent receipt names nobody who got the details: an offer is not a delivery.
    receipt = next(content for recipients, content in smtp.messages if recipients == ["maria.garcia@example.com"])
    assert "Cool Air LLC" not in receipt


def test_the_offer_before_acceptance_shows_the_job_and_no_contact_details(reviewer, make_lead, session_factory):
    pro = reviewer()
    lead = make_lead(email="maria.garcia@example.com")
    offer = offers_of(session_factory, lead.id)[pro.provider_id]

    listed = pro.get(f"{pro.me}/offers")
    detail = pro.get(f"{pro.me}/offers/{offer.id}")

    assert listed.status_code == 200 and detail.status_code == 200
    assert listed.json()["openCount"] == 1 and [item["id"] for item in listed.json()["items"]] == [offer.id]
    body = detail.json()
    assert body["contact"] is None and body["reference"] is None and body["status"] == "open"
    assert (body["city"], body["state"], body["zip"]) == ("Austin", "TX", "78701")
    assert {"question": "What do you need help with?", "answer": "Replace an existing system"} in body["answers"] \
        or any(pair["answer"] == "Replace an existing system" for pair in body["answers"])
    for personal in PERSONAL:
        assert personal not in listed.text and personal not in detail.text


def test_three_companies_at_most_counting_buyers_direct_providers_and_offers(
        reviewer, add_direct, make_lead, session_factory, settings, app):
    direct = add_direct("Direct Heating")
    first, second, third = reviewer("First Air"), reviewer("Second Air"), reviewer("Third Air")
    # The fixed buyer takes one seat; the direct provider and one offer take the other two.
    with_buyer = with_fixed_buyer(app, settings, "http://127.0.0.1:9/buyer")
    lead = make_lead(routed_with=with_buyer)

    offered = offers_of(session_factory, lead.id)
    # The direct provider's accepted offer is its charge, beside its deliveries: still one seat.
    assert set(offered) == {direct.id, first.provider_id}
    assert offered[direct.id].status == OfferStatus.ACCEPTED and offered[first.provider_id].status == OfferStatus.OPEN
    assert any(row.payload_kind == "lead" for row in deliveries_to(session_factory, lead.id, direct.id))

    # A declined offer frees its seat for the next provider, and only that one.
    assert first.send("POST", f"{first.me}/offers/{offered[first.provider_id].id}/decline").status_code == 200
    offered = offers_of(session_factory, lead.id)
    assert offered[second.provider_id].status == OfferStatus.OPEN
    assert third.provider_id not in offered


@pytest.mark.parametrize(("limit", "tap"), [
    # The daily cap counts offers, even declined ones.
    ({"daily_cap": 1}, "decline"),
    # The weekly budget leaves out a provider whose next charge would pass it.
    ({"weekly_budget_cents": 3000}, "accept"),
])
def test_a_provider_at_its_daily_cap_or_weekly_budget_is_offered_no_more(
        reviewer, make_lead, session_factory, limit, tap):
    pro = reviewer(**limit)
    first = make_lead()
    offer = offers_of(session_factory, first.id)[pro.provider_id]
    assert pro.send("POST", f"{pro.me}/offers/{offer.id}/{tap}").status_code == 200

    second = make_lead()

    assert offers_of(session_factory, second.id) == {}
    assert sum(entry.amount_cents for entry in ledger_of(session_factory, pro.provider_id)) == (
        -2500 if tap == "accept" else 0)


def test_auto_accept_takes_the_lead_at_once_charged_and_sent_in_full(reviewer, make_lead, session_factory):
    pro = reviewer("Quick Air", auto_accept=True)
    lead = make_lead()

    offer = offers_of(session_factory, lead.id)[pro.provider_id]
    assert offer.status == OfferStatus.ACCEPTED and offer.auto_accepted
    [charge] = ledger_of(session_factory, pro.provider_id)
    assert (charge.kind, charge.amount_cents, charge.cause, charge.cause_id) == ("charge", -2500, "offer", offer.id)
    assert charge.description == "Heating & AC repair lead, Austin TX 78701" or charge.description.endswith(
        "lead, Austin TX 78701")
    rows = {(row.kind, row.payload_kind, row.status) for row in deliveries_to(session_factory, lead.id, pro.provider_id)}
    assert rows == {(TargetKind.PROVIDER_PORTAL, "lead", DeliveryStatus.DELIVERED),
                    (TargetKind.PROVIDER_EMAIL, "lead", DeliveryStatus.PENDING)}
    assert pro.get(f"{pro.me}/offers/{offer.id}").json()["contact"]["firstName"] == "Maria"


def test_an_exclusive_offer_goes_to_the_opted_in_provider_alone_then_on_if_declined(
        reviewer, make_lead, session_factory):
    alone = reviewer("Only Air", exclusive_leads=True)
    other = reviewer("Other Air")
    lead = make_lead()

    offered = offers_of(session_factory, lead.id)
    assert list(offered) == [alone.provider_id]
    exclusive = offered[alone.provider_id]
    assert exclusive.exclusive and exclusive.price_cents == round(2500 * EXCLUSIVE_FACTOR)

    assert alone.send("POST", f"{alone.me}/offers/{exclusive.id}/decline").status_code == 200
    offered = offers_of(session_factory, lead.id)
    assert offered[other.provider_id].status == OfferStatus.OPEN and not offered[other.provider_id].exclusive


def test_no_exclusive_offer_while_a_buyer_holds_the_lead(reviewer, make_lead, session_factory, settings, app):
    pro = reviewer("Only Air", exclusive_leads=True)
    lead = make_lead(routed_with=with_fixed_buyer(app, settings, "http://127.0.0.1:9/buyer"))

    offer = offers_of(session_factory, lead.id)[pro.provider_id]

    assert not offer.exclusive and offer.price_cents == 2500
