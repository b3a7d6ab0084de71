"""The portal's offer API: accept charges once and shows the contact details, decline is free and
offers the lead on, expiry likewise; another provider's offer is not there; taps need the session
and its CSRF token; a withdrawn offer cannot be accepted."""

from __future__ import annotations

from datetime import timedelta

import pytest
from offers_support import PERSONAL, deliveries_to, ledger_of, offers_of
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.delivery.models import DeliveryStatus, Provider, TargetKind
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.privacy import actions
from servicematch.privacy.models import LeadRevocation
from servicematch.routing.models import OfferStatus
from servicematch.routing.offers import close_lapsed_offers


def test_accepting_charges_once_shows_the_contact_and_tells_the_consumer(
        reviewer, make_lead, session_factory, worker, smtp):
    pro = reviewer("Cool Air LLC")
    lead = make_lead(email="maria.garcia@example.com")
    offer = offers_of(session_factory, lead.id)[pro.provider_id]

    first = pro.send("POST", f"{pro.me}/offers/{offer.id}/accept")
    again = pro.send("POST", f"{pro.me}/offers/{offer.id}/accept")

    assert first.status_code == 200 and again.status_code == 200
    assert first.json()["contact"] == {"firstName": "Maria", "lastName": "Garcia", "email": "maria.garcia@example.com",
                                       "phone": first.json()["contact"]["phone"], "street": "500 Congress Ave Suite 4",
                                       "city": "Austin", "state": "TX", "zip": "78701"}
    assert first.json()["reference"] and first.json()["creditableUntil"]
    assert again.json() == {**first.json(), "decidedAt": again.json()["decidedAt"]}
    [charge] = ledger_of(session_factory, pro.provider_id)
    assert (charge.kind, charge.amount_cents, charge.cause_id, charge.lead_id) == ("charge", -2500, offer.id, lead.id)
    portal = [row for row in deliveries_to(session_factory, lead.id, pro.provider_id)
              if row.kind == TargetKind.PROVIDER_PORTAL]
    assert [(row.status, row.payload_kind, row.attempt_count, row.target_key) for row in portal] == [
        (DeliveryStatus.DELIVERED, "lead", 0, f"portal:{pro.provider_id}")]
    with session_factory() as session:
        audited = session.scalars(select(AuditEntry).where(AuditEntry.action == "portal.offer.accept")).all()
    assert len(audited) == 1

    worker.run_until_idle()
    to_consumer = [content for recipients, content in smtp.messages if recipients == ["maria.garcia@example.com"]]
    assert any("Cool Air LLC has your request for" in content and "will contact you" in content
               for content in to_consumer)
    # Nothing ever tried to send the portal's row.
    assert all(row.attempt_count == 0 for row in deliveries_to(session_factory, lead.id, pro.provider_id)
               if row.kind == TargetKind.PROVIDER_PORTAL)


def test_declining_is_free_and_the_next_provider_gets_an_offer(reviewer, make_lead, session_factory):
    first, second, third, fourth = (reviewer(f"Air {n}") for n in range(4))
    lead = make_lead()
    offered = offers_of(session_factory, lead.id)
    assert set(offered) == {first.provider_id, second.provider_id, third.provider_id}

    answer = first.send("POST", f"{first.me}/offers/{offered[first.provider_id].id}/decline")

    assert answer.status_code == 200 and answer.json()["status"] == "declined" and answer.json()["contact"] is None
    assert ledger_of(session_factory, first.provider_id) == []
    offered = offers_of(session_factory, lead.id)
    assert offered[fourth.provider_id].status == OfferStatus.OPEN
    again = first.send("POST", f"{first.me}/offers/{offered[first.provider_id].id}/decline")
    assert again.status_code == 409 and again.json()["error"] == "You declined this offer."


def test_an_offer_not_accepted_in_time_expires_and_the_next_provider_gets_one(
        reviewer, make_lead, session_factory, settings):
    first, second = reviewer("Air One", daily_cap=5), reviewer("Air Two")
    # On the partners list the consumer saw, but serving another area when the lead is routed.
    late = reviewer("Late Air", zips=["10001"])
    lead = make_lead()
    # Two providers, three seats: a third that comes to serve the area later is the next one.
    with session_factory() as session:
        session.get(Provider, late.provider_id).zips = ["78701"]
        session.commit()
    offered = offers_of(session_factory, lead.id)
    assert set(offered) == {first.provider_id, second.provider_id}
    pro = first

    closed = close_lapsed_offers(session_factory=session_factory, settings=settings,
                                 now=utcnow() + timedelta(minutes=settings.offer_ttl_minutes + 1))

    assert closed == 2
    offered = offers_of(session_factory, lead.id)
    assert offered[first.provider_id].status == offered[second.provider_id].status == OfferStatus.EXPIRED
    assert offered[late.provider_id].status == OfferStatus.OPEN
    answer = pro.send("POST", f"{pro.me}/offers/{offered[first.provider_id].id}/accept")
    assert answer.status_code == 409 and "expired" in answer.json()["error"]
    assert ledger_of(session_factory, first.provider_id) == []


def test_another_providers_offer_answers_404_with_no_body(reviewer, make_lead, session_factory):
    owner, stranger = reviewer("Owner Air"), reviewer("Stranger Air")
    lead = make_lead()
    offer = offers_of(session_factory, lead.id)[owner.provider_id]

    answers = [stranger.get(f"{stranger.me}/offers/{offer.id}"),
               stranger.send("POST", f"{stranger.me}/offers/{offer.id}/accept"),
               stranger.send("POST", f"{stranger.me}/offers/{offer.id}/decline"),
               stranger.get(f"/providers/{owner.provider_id}/offers"),
               stranger.get(f"/providers/{owner.provider_id}/offers/{offer.id}")]

    assert [(a.status_code, a.content) for a in answers] == [(404, b"")] * 5
    assert offers_of(session_factory, lead.id)[owner.provider_id].status == OfferStatus.OPEN
    assert ledger_of(session_factory, stranger.provider_id) == []


def test_taps_need_the_csrf_token_and_a_session(reviewer, make_lead, session_factory, app):
    from fastapi.testclient import TestClient

    pro = reviewer()
    lead = make_lead()
    offer = offers_of(session_factory, lead.id)[pro.provider_id]
    stranger = TestClient(app)

    for tap in ("accept", "decline"):
        assert pro.send("POST", f"{pro.me}/offers/{offer.id}/{tap}", csrf=False).status_code == 403
        assert stranger.post(f"/api/pro{pro.me}/offers/{offer.id}/{tap}").status_code == 401
    assert stranger.get(f"/api/pro{pro.me}/offers/{offer.id}").status_code == 401
    assert offers_of(session_factory, lead.id)[pro.provider_id].status == OfferStatus.OPEN


def test_a_stopped_request_withdraws_its_offers_which_cannot_be_accepted(reviewer, make_lead, session_factory):
    pro = reviewer()
    lead = make_lead()
    offer = offers_of(session_factory, lead.id)[pro.provider_id]
    with session_factory() as session:
        actions.revoke(session=session, leads=[session.get(Lead, lead.id)], method="test", request_id=None,
                       now=utcnow())
        session.commit()

    assert offers_of(session_factory, lead.id)[pro.provider_id].status == OfferStatus.WITHDRAWN
    answer = pro.send("POST", f"{pro.me}/offers/{offer.id}/accept")
    assert answer.status_code == 409 and "withdrawn" in answer.json()["error"]
    assert ledger_of(session_factory, pro.provider_id) == []


def test_an_accept_after_a_withdrawal_the_hook_missed_is_refused_too(reviewer, make_lead, session_factory):
    pro = reviewer()
    lead = make_lead(email="maria.garcia@example.com")
    offer = offers_of(session_factory, lead.id)[pro.provider_id]
    with session_factory() as session:
        session.add(LeadRevocation(lead_id=lead.id, revoked_at=utcnow(), method="test", request_id=None))
        session.commit()

    answer = pro.send("POST", f"{pro.me}/offers/{offer.id}/accept")

    assert answer.status_code == 409
    assert offers_of(session_factory, lead.id)[pro.provider_id].status == OfferStatus.WITHDRAWN
    for personal in PERSONAL:
        assert personal not in answer.text


def test_accepting_past_the_weekly_budget_is_refused(reviewer, make_lead, session_factory):
    pro = reviewer(weekly_budget_cents=4000)
    first, second = make_lead(), make_lead()  # both offered before anything was charged
    offers = [offers_of(session_factory, lead.id)[pro.provider_id] for lead in (first, second)]

    assert pro.send("POST", f"{pro.me}/offers/{offers[0].id}/accept").status_code == 200
    refused = pro.send("POST", f"{pro.me}/offers/{offers[1].id}/accept")

    assert refused.status_code == 409 and "weekly budget" in refused.json()["error"]
    assert offers_of(session_factory, second.id)[pro.provider_id].status == OfferStatus.OPEN
    assert len(ledger_of(session_factory, pro.provider_id)) == 1


def test_the_list_pages_and_filters(reviewer, make_lead, session_factory):
    pro = reviewer()
    leads = [make_lead() for _ in range(3)]
    ids = [offers_of(session_factory, lead.id)[pro.provider_id].id for lead in leads]
    assert pro.send("POST", f"{pro.me}/offers/{ids[0]}/accept").status_code == 200

    page = pro.get(f"{pro.me}/offers?status=all&limit=2").json()
    rest = pro.get(f"{pro.me}/offers?status=all&limit=2&before={page['nextCursor']}").json()
    accepted = pro.get(f"{pro.me}/offers?status=accepted").json()

    assert [item["id"] for item in page["items"] + rest["items"]] == ids[::-1]
    assert rest["nextCursor"] is None and page["openCount"] == 2
    assert [item["id"] for item in accepted["items"]] == [ids[0]]
    bad = pro.get(f"{pro.me}/offers?before=nonsense")
    assert bad.status_code == 422 and "before" in bad.json()["fields"]


def test_two_accepts_at_once_charge_once(reviewer, make_lead, session_factory, settings):
    if not settings.database_url.startswith("postgresql"):
        pytest.skip("SQLite takes one writer at a time; the race is PostgreSQL's")
    from concurrent.futures import ThreadPoolExecutor

    from servicematch.delivery.models import Provider
    from servicematch.portal.offers import decide

    pro = reviewer()
    lead = make_lead()
    offer = offers_of(session_factory, lead.id)[pro.provider_id]

    def tap(_: int) -> bool:
        with session_factory() as session:
            return decide(session, settings, session.get(Provider, pro.provider_id), offer.id, accept=True,
                          now=utcnow())

    with ThreadPoolExecutor(4) as pool:
        changed = list(pool.map(tap, range(4)))

    assert sorted(changed) == [False, False, False, True]
    assert len(ledger_of(session_factory, pro.provider_id)) == 1
