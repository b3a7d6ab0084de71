"""Direct providers (added by operators, sent every lead in full) are charged at once: an offer
recorded accepted as routing sends the lead, and its ledger charge, in the same transaction as the
deliveries; never for a duplicate, a do-not-sell lead or one whose consent was withdrawn."""

from __future__ import annotations

import pytest
from offers_support import deliveries_to, ledger_of, offers_of

from servicematch.delivery.models import DeliveryStatus, ProviderMode, TargetKind
from servicematch.routing.models import OfferStatus
from servicematch.routing.offers import providers_holding_seats
from servicematch.routing.pricing import LIST_PRICE_CENTS


@pytest.mark.parametrize(("own_price", "charged"), [(None, LIST_PRICE_CENTS["services"]), (4200, 4200)])
def test_a_direct_provider_is_charged_once_at_its_price_and_sent_the_lead_in_full(
        add_direct, make_lead, session_factory, own_price, charged):
    direct = add_direct("Direct Heating", lead_price_cents=own_price)
    lead = make_lead()

    offer = offers_of(session_factory, lead.id)[direct.id]
    assert (offer.status, offer.auto_accepted, offer.exclusive, offer.price_cents) == (
        OfferStatus.ACCEPTED, True, False, charged)
    assert offer.decided_at is not None
    [charge] = ledger_of(session_factory, direct.id)
    assert (charge.kind, charge.amount_cents, charge.cause_id, charge.lead_id) == ("charge", -charged, offer.id, lead.id)
    assert charge.description.endswith("lead, Austin TX 78701")
    # The lead by its own channel and nothing else: no portal hand-over, no "new offer" notice.
    rows = {(row.kind, row.payload_kind, row.status) for row in deliveries_to(session_factory, lead.id, direct.id)}
    assert rows == {(TargetKind.PROVIDER_EMAIL, "lead", DeliveryStatus.PENDING)}


def test_a_direct_provider_holds_one_seat_beside_offers(add_direct, reviewer, make_lead, session_factory):
    direct = add_direct("Direct Heating")
    first, second, third = reviewer("First Air"), reviewer("Second Air"), reviewer("Third Air")
    lead = make_lead()

    offered = offers_of(session_factory, lead.id)
    assert set(offered) == {direct.id, first.provider_id, second.provider_id}
    with session_factory() as session:
        assert providers_holding_seats(session, lead.id) == {direct.id, first.provider_id, second.provider_id}

    # A declined offer frees exactly one seat: the direct provider's deliveries and its accepted
    # offer are one company, not two.
    assert first.send("POST", f"{first.me}/offers/{offered[first.provider_id].id}/decline").status_code == 200
    offered = offers_of(session_factory, lead.id)
    assert offered[third.provider_id].status == OfferStatus.OPEN
    assert len(ledger_of(session_factory, direct.id)) == 1


@pytest.mark.parametrize("lead_kind", ["duplicate", "do_not_sell", "withdrawn"])
def test_no_charge_for_a_duplicate_a_do_not_sell_lead_or_a_withdrawn_one(
        add_direct, make_lead, session_factory, lead_kind):
    direct = add_direct("Direct Heating")
    if lead_kind == "duplicate":
        make_lead(phone="5125550777")
        lead = make_lead(phone="5125550777")
    else:
        lead = make_lead(**{lead_kind: True})

    assert direct.id not in offers_of(session_factory, lead.id)
    charged_for = {entry.lead_id for entry in ledger_of(session_factory, direct.id)}
    assert lead.id not in charged_for
    sent = [row for row in deliveries_to(session_factory, lead.id, direct.id) if row.payload_kind == "lead"]
    # A do-not-sell lead still goes to the provider the consumer asked for, free; the others to nobody.
    assert bool(sent) == (lead_kind == "do_not_sell")


def test_a_do_not_sell_lead_is_offered_free_and_its_acceptance_charges_nothing(reviewer, make_lead, session_factory):
    pro = reviewer("Review Air")
    lead = make_lead(do_not_sell=True)

    offer = offers_of(session_factory, lead.id)[pro.provider_id]
    assert (offer.status, offer.price_cents) == (OfferStatus.OPEN, 0)
    accepted = pro.send("POST", f"{pro.me}/offers/{offer.id}/accept")
    assert accepted.status_code == 200, accepted.text
    assert (accepted.json()["status"], accepted.json()["priceCents"]) == ("accepted", 0)
    assert ledger_of(session_factory, pro.provider_id) == []


def test_a_direct_provider_past_its_weekly_budget_is_sent_no_more(add_direct, make_lead, session_factory):
    direct = add_direct("Direct Heating", weekly_budget_cents=3000)
    first = make_lead()
    second = make_lead()

    assert [entry.lead_id for entry in ledger_of(session_factory, direct.id)] == [first.id]
    assert deliveries_to(session_factory, second.id, direct.id) == []


def test_the_console_revenue_counts_a_direct_providers_charge(add_direct, make_lead, client, operator):
    add_direct("Direct Heating", lead_price_cents=4200)
    make_lead()

    revenue = client.get("/api/console/dashboard").json()["revenue"]

    assert revenue["cents"] == 4200
    assert [(row["name"], row["cents"], row["sales"]) for row in revenue["byBuyer"]] == [("Providers", 4200, 1)]


def test_a_direct_provider_with_a_portal_account_sees_the_lead_accepted_and_may_ask_a_credit(
        reviewer, make_lead, session_factory):
    pro = reviewer("Direct Air", mode=ProviderMode.DIRECT)
    lead = make_lead()
    offer = offers_of(session_factory, lead.id)[pro.provider_id]

    listed = pro.get(f"{pro.me}/offers?status=accepted").json()
    detail = pro.get(f"{pro.me}/offers/{offer.id}").json()
    asked = pro.send("POST", f"{pro.me}/offers/{offer.id}/credit", {"reason": "wrong_phone"})

    assert [item["id"] for item in listed["items"]] == [offer.id] and listed["openCount"] == 0
    assert detail["autoAccepted"] is True and detail["contact"]["firstName"] == "Maria"
    assert asked.status_code == 201, asked.text
    assert asked.json()["amountCents"] == LIST_PRICE_CENTS["services"]
    assert {row.payload_kind for row in deliveries_to(session_factory, lead.id, pro.provider_id)} == {"lead"}
