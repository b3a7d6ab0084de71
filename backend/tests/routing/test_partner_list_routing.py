"""A lead goes only to companies on the marketing-partners list its consumer saw: a buyer or
provider added after the lead was stored is skipped, with the reason in the auction's steps."""

from __future__ import annotations

import time
from datetime import datetime

import pytest
from buyer_receivers import BuyerReceiver
from delivery_fixtures import route_accepted
from delivery_receivers import started_receivers
from delivery_support import deliveries_of

from servicematch.catalog.partners import current_partner_list, names_on_version, not_listed_reason
from servicematch.intake.service import LeadTransactions
from servicematch.routing import buyers as directory
from servicematch.routing.reports import waterfall


@pytest.fixture
def no_fixed_buyer(settings):
    return settings.model_copy(update={"buyer_url": "", "ping_timeout_ms": 400})


@pytest.fixture
def buyers():
    yield from started_receivers(BuyerReceiver)


def add_buyer(app, name: str, receiver: BuyerReceiver, **terms) -> str:
    with app.state.session_factory() as session:
        buyer = directory.add_buyer(session, directory.BuyerTerms(
            name=name, post_url=receiver.post_url, ping_url=receiver.ping_url, **terms), allow_private=True)
        session.commit()
        return buyer.id


def store_without_routing(app, settings, make_lead, *, queued_for: float = 0.0):
    """A lead stored through intake, not yet routed (routing runs in the worker after the commit);
    `queued_for`: seconds between checking the lead and storing it (the lead writer's batch wait)."""
    new = make_lead(store=False)
    time.sleep(queued_for)
    transactions = LeadTransactions(session_factory=app.state.session_factory, settings=settings,
                                    index=app.state.catalog)
    return transactions.store_one(new).lead


def test_a_buyer_added_after_the_lead_was_stored_gets_no_ping_and_no_post(
        app, no_fixed_buyer, make_lead, worker, buyers, session_factory):
    early, late = buyers(ping_answer={"bid": 20}), buyers(ping_answer={"bid": 60})
    add_buyer(app, "Early Bird Leads LLC", early)
    lead = store_without_routing(app, no_fixed_buyer, make_lead)
    seen = lead.consent.partner_list_version
    add_buyer(app, "Latecomer Leads LLC", late, exclusive=True)  # a higher, exclusive bid: it would win

    route_accepted(app, no_fixed_buyer)
    worker.run_until_idle()

    assert late.pings == [] and late.posts == []
    [post] = early.posts
    consent = post.json["consent"]
    assert consent["partnerListVersion"] == seen
    with session_factory() as session:
        assert "Early Bird Leads LLC" in names_on_version(session, seen)
        assert "Latecomer Leads LLC" not in names_on_version(session, seen)
        steps = waterfall(session, lead.id)
    skipped = [step for step in steps if step["buyer"] == "Latecomer Leads LLC"]
    assert [step["kind"] for step in skipped] == ["pass"]
    assert skipped[0]["detail"] == f"not on the marketing-partners list the consumer saw (version {seen})"


def test_the_post_says_the_consumer_consented_no_later_than_the_lead_was_made(
        app, no_fixed_buyer, make_lead, worker, buyers):
    buyer = buyers(ping_answer={"bid": 20})
    add_buyer(app, "Early Bird Leads LLC", buyer)
    store_without_routing(app, no_fixed_buyer, make_lead, queued_for=0.02)
    route_accepted(app, no_fixed_buyer)
    worker.run_until_idle()

    [post] = buyer.posts
    created = datetime.fromisoformat(post.json["createdAt"])
    consented = datetime.fromisoformat(post.json["consent"]["consentedAt"])
    assert consented <= created


def test_intake_records_the_list_current_when_the_lead_came_in(app, no_fixed_buyer, make_lead, buyers):
    first = store_without_routing(app, no_fixed_buyer, make_lead)
    add_buyer(app, "Northwind Leads Inc.", buyers())
    second = store_without_routing(app, no_fixed_buyer, make_lead)

    current = current_partner_list(app.state.session_factory, app.state.catalog.catalog.marketingPartners)
    assert second.consent.partner_list_version == current.version
    assert first.consent.partner_list_version != current.version
    assert "Northwind Leads Inc." in current.partners
    assert second.consent.consented_at == second.created_at


def test_a_provider_added_after_the_lead_was_stored_is_not_sent_it(
        app, no_fixed_buyer, make_lead, add_provider, session_factory, receiver):
    known = add_provider("Known Cooling LLC", webhook_url=f"{receiver.url}/known")
    lead = store_without_routing(app, no_fixed_buyer, make_lead)
    newcomer = add_provider("Newcomer Cooling LLC", webhook_url=f"{receiver.url}/newcomer")

    route_accepted(app, no_fixed_buyer)

    reached = {row.provider_id for row in deliveries_of(session_factory, lead.id) if row.provider_id}
    assert reached == {known.id}
    with session_factory() as session:
        details = [step["detail"] for step in waterfall(session, lead.id) if step["kind"] == "pass"]
    assert details == [f"Provider Newcomer Cooling LLC: {not_listed_reason(lead.consent.partner_list_version)}"]
    assert newcomer.id not in reached


def test_the_fixed_buyer_is_skipped_when_its_name_was_not_on_the_lead_list(
        app, settings, make_lead, session_factory):
    lead = store_without_routing(app, settings, make_lead)
    renamed = settings.model_copy(update={"buyer_name": "Renamed Lead Buyer Co"})

    route_accepted(app, renamed)

    assert [row.kind for row in deliveries_of(session_factory, lead.id) if row.kind == "buyer"] == []
    with session_factory() as session:
        details = [step["detail"] for step in waterfall(session, lead.id) if step["kind"] == "pass"]
    assert details == [f"Renamed Lead Buyer Co: {not_listed_reason(lead.consent.partner_list_version)}"]


def test_the_named_fixed_buyer_on_the_list_still_gets_the_lead(app, settings, make_lead, session_factory):
    lead = make_lead()
    assert [row.kind for row in deliveries_of(session_factory, lead.id)].count("buyer") == 1
