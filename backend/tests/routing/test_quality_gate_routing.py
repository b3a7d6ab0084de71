"""The quality gate in a real auction: every ping carries the lead's score and reasons, a lead on
a global suppression list is sold and offered to nobody, a buyer's own list keeps only that buyer
from it, a held lead reaches nobody until an operator releases it, and is then sold."""

from __future__ import annotations

import bidding_buyers
from delivery_fixtures import route_accepted
from sqlalchemy import select, update
from statements_run import statements_run, statements_uncached

from servicematch.intake.models import QUALITY_HELD, QUALITY_RELEASED, Lead, LeadEvent
from servicematch.intake.service import LeadTransactions
from servicematch.quality.suppression_import import ImportRequest, import_list
from servicematch.routing.models import Auction, ProviderOffer, Sale
from servicematch.routing.reports import waterfall

# Fixtures (pytest finds them here) and the helper shared with the other auction tests of the gate.
settings, buyers, add_buyer = bidding_buyers.settings, bidding_buyers.buyers, bidding_buyers.add_buyer

# An Austin number (512): the lead's state is Texas, so its area code raises no flag.
CLEAN_PHONE = "5125552368"
# New York's 212 on a Texas lead.
NEW_YORK_PHONE = "2125552368"
FICTIONAL_PHONE = "5125550142"


def suppress(app, phones: list[str], *, name: str, buyer_id: str | None = None) -> None:
    with app.state.session_factory() as session:
        import_list(session.connection(), phones, ImportRequest(list_name=name, kind="phone", buyer_id=buyer_id))
        session.commit()


def test_every_ping_carries_the_score_and_the_reasons_found(app, make_lead, buyers, worker):
    buyer = buyers(ping_answer={"bid": 20})
    add_buyer(app, "Scored Leads LLC", buyer)
    make_lead(phone=NEW_YORK_PHONE, email="someone@mailinator.com")
    worker.run_until_idle()
    quality = buyer.pings[0].json["quality"]
    assert {"phone_area_state", "email_disposable"} <= set(quality["reasons"])
    assert 0 <= quality["score"] < 100
    # The post carries the same verdict as the ping.
    assert buyer.posts and buyer.posts[0].json["quality"] == quality


def test_a_lead_on_a_global_suppression_list_is_sold_and_offered_to_nobody(app, make_lead, buyers, add_provider,
                                                                           session_factory):
    buyer = buyers(ping_answer={"bid": 20})
    add_buyer(app, "Careful Leads LLC", buyer)
    add_provider("Austin Air", webhook_url=None)
    suppress(app, [CLEAN_PHONE], name="litigators")
    lead = make_lead(phone=CLEAN_PHONE)
    assert buyer.pings == [] and buyer.posts == []
    with session_factory() as session:
        stored = session.get(Lead, lead.id)
        assert "suppressed:litigators" in stored.quality_reasons
        assert session.scalars(select(Sale).where(Sale.lead_id == lead.id)).all() == []
        assert session.scalars(select(ProviderOffer).where(ProviderOffer.lead_id == lead.id)).all() == []
        assert session.get(Auction, lead.id).closed_at is not None


def test_a_buyers_own_list_keeps_only_that_buyer_from_the_lead(app, make_lead, buyers, session_factory, worker):
    careful, other = buyers(ping_answer={"bid": 30}), buyers(ping_answer={"bid": 20})
    careful_id = add_buyer(app, "Own List Leads LLC", careful)
    add_buyer(app, "Other Leads LLC", other)
    suppress(app, [CLEAN_PHONE], name="own-customers", buyer_id=careful_id)
    lead = make_lead(phone=CLEAN_PHONE)
    worker.run_until_idle()
    assert careful.pings == [] and len(other.pings) == 1 and len(other.posts) == 1
    with session_factory() as session:
        steps = [step for step in waterfall(session, lead.id) if step["buyer"] == "Own List Leads LLC"]
    assert [(step["kind"], step["detail"]) for step in steps] == [
        ("pass", "on its own suppression list own-customers")]


def test_a_held_lead_reaches_nobody_until_released_then_is_sold(app, settings, make_lead, buyers, session_factory,
                                                               worker):
    holding = settings.model_copy(update={"quality_hold_below": 30})
    buyer = buyers(ping_answer={"bid": 20})
    add_buyer(app, "Patient Leads LLC", buyer)
    lead = make_lead(phone=FICTIONAL_PHONE, with_settings=holding)
    assert buyer.pings == []
    with session_factory() as session:
        stored = session.get(Lead, lead.id)
        assert stored.quality_status == QUALITY_HELD and "phone_fake" in stored.quality_reasons
        assert session.get(Auction, lead.id) is None
        # What the console's "Release" does: the lead is routed again, as having passed.
        stored.quality_status = QUALITY_RELEASED
        session.add(LeadEvent(lead_id=lead.id))
        session.commit()
    route_accepted(app, holding)
    worker.run_until_idle()
    assert len(buyer.pings) == 1 and buyer.pings[0].json["quality"]["score"] == stored.quality_score
    with session_factory() as session:
        assert [sale.buyer_id for sale in session.scalars(select(Sale).where(Sale.lead_id == lead.id))]


def store_unrouted(app, settings, make_lead, phones: list[str]) -> list[Lead]:
    """Leads stored in one transaction and not yet routed, so one round of the worker takes them all."""
    batch = [make_lead(store=False, phone=phone) for phone in phones]
    transactions = LeadTransactions(session_factory=app.state.session_factory, settings=settings,
                                    index=app.state.catalog)
    return [stored.lead for stored in transactions.store_together(batch)]


def test_a_round_of_leads_is_read_together_and_each_lead_gets_what_it_would_alone(app, settings, make_lead, buyers,
                                                                                 session_factory, worker):
    careful, other = buyers(ping_answer={"bid": 30}), buyers(ping_answer={"bid": 20})
    careful_id = add_buyer(app, "Own List Leads LLC", careful)
    add_buyer(app, "Other Leads LLC", other)
    suppress(app, ["5125552301"], name="litigators")
    suppress(app, ["5125552302"], name="own-customers", buyer_id=careful_id)
    listed, own_listed, clean = store_unrouted(app, settings, make_lead, ["5125552301", "5125552302", CLEAN_PHONE])
    with statements_run(app.state.engine) as reads:
        route_accepted(app, settings)
    worker.run_until_idle()
    # One read of the buyers and one of the suppression lists for the three leads.
    assert len([s for s in reads if "FROM buyers" in s and "buyers.active" in s]) == 1
    assert len([s for s in reads if "FROM suppression_entries" in s]) == 1
    with session_factory() as session:
        pinged = {lead.id: sorted(step["buyer"] for step in waterfall(session, lead.id) if step["kind"] == "ping")
                  for lead in (listed, own_listed, clean)}
    assert pinged == {listed.id: [], own_listed.id: ["Other Leads LLC"],
                      clean.id: ["Other Leads LLC", "Own List Leads LLC"]}
    assert len(careful.pings) == 1 and len(other.pings) == 2
    with session_factory() as session:
        assert "suppressed:litigators" in session.get(Lead, listed.id).quality_reasons
        own = [(step["kind"], step["detail"]) for step in waterfall(session, own_listed.id)
               if step["buyer"] == "Own List Leads LLC"]
        assert own == [("pass", "on its own suppression list own-customers")]
        assert {sale.lead_id for sale in session.scalars(select(Sale))} == {own_listed.id, clean.id}


def test_rounds_of_any_size_run_statements_compiled_once(app, settings, make_lead, buyers, worker):
    """A statement built for each round size (or from each round's data) is compiled again and kept
    in memory for every size seen: the worker grew by hundreds of megabytes that way."""
    add_buyer(app, "First Leads LLC", buyers(ping_answer={"bid": 30}))
    add_buyer(app, "Second Leads LLC", buyers(ping_answer={"bid": 20}))
    with statements_run(app.state.engine) as statements, statements_uncached(app.state.engine) as uncached:
        for phones in (["5125552321", "5125552322", "5125552323"], ["5125552324", "5125552325"]):
            store_unrouted(app, settings, make_lead, phones)
            route_accepted(app, settings)
            worker.run_until_idle()
    assert uncached == []
    histories = {statement for statement in statements if "phone_leads" in statement}
    assert len(histories) == 1
    with app.state.session_factory() as session:
        assert len({sale.lead_id for sale in session.scalars(select(Sale))}) == 5


def test_a_lead_that_cannot_be_read_holds_up_no_other_in_its_round(app, settings, make_lead, buyers, session_factory,
                                                                  worker, caplog):
    buyer = buyers(ping_answer={"bid": 20})
    add_buyer(app, "Steady Leads LLC", buyer)
    broken, *fine = store_unrouted(app, settings, make_lead, ["5125552311", "5125552312", "5125552313"])
    with session_factory() as session:
        session.execute(update(Lead).where(Lead.id == broken.id).values(personal_data=b"not a ciphertext"))
        session.commit()
    route_accepted(app, settings)
    worker.run_until_idle()
    assert len(buyer.pings) == 2
    assert f"routing lead {broken.id} failed; it is routed again after its lease" in caplog.text
    with session_factory() as session:
        events = {row.lead_id: row for row in session.scalars(select(LeadEvent))}
        assert events[broken.id].done_at is None and events[broken.id].claimed_until is not None
        assert all(events[lead.id].done_at is not None for lead in fine)
        assert {sale.lead_id for sale in session.scalars(select(Sale))} == {lead.id for lead in fine}
