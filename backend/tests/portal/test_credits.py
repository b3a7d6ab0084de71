"""Credit requests in the portal: only on the provider's own accepted leads, within the window,
once per lead, within the monthly cap; a duplicate the records prove is approved at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from money_support import accept_offer, open_offer, store_lead
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.delivery.models import Provider
from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import AccountKind, EntryKind, LedgerAccount, LedgerEntry
from servicematch.portal.models import CreditRequest, CreditStatus

WINDOW_REFUSAL = "Credits can be requested within 30 days of accepting a lead."


def _ask(client, offer_id: str, reason: str = "wrong_phone", **more):
    return client.send("POST", f"{client.me}/offers/{offer_id}/credit", {"reason": reason, **more})


def _cap(app, provider_id: str, percent: int) -> None:
    with app.state.session_factory() as session:
        session.get(Provider, provider_id).credit_cap_percent = percent
        session.commit()


def _ledger(app, provider_id: str) -> list[tuple[str, int]]:
    """The provider's entries, oldest first, as it owes them (a charge positive, a credit negative)."""
    with app.state.session_factory() as session:
        return [(e.kind, -e.amount_cents) for e in session.scalars(
            select(LedgerEntry).join(LedgerAccount).where(LedgerAccount.kind == AccountKind.PROVIDER,
                                                          LedgerAccount.owner_id == provider_id)
            .order_by(LedgerEntry.created_at, LedgerEntry.id))]


def test_a_credit_on_an_accepted_lead_waits_for_an_operator_and_is_listed(app, provider):
    pro = provider()
    lead = store_lead(app)
    offer_id = accept_offer(app, lead_id=lead.id, provider_id=pro.provider_id, price_cents=4500)

    answer = _ask(pro, offer_id, "other", detail="The customer said\nthey never asked for a quote.")
    assert answer.status_code == 201, answer.text
    credit = answer.json()
    assert {key: credit[key] for key in ("offerId", "reason", "reasonLabel", "status", "amountCents", "decidedAt",
                                         "decisionNote", "city", "state")} == {
        "offerId": offer_id, "reason": "other", "reasonLabel": "Other", "status": "pending", "amountCents": 4500,
        "decidedAt": None, "decisionNote": None, "city": "Austin", "state": "TX"}
    assert credit["detail"] == "The customer said\nthey never asked for a quote."
    assert credit["serviceName"] == app.state.catalog.find("hvac", "services").name
    assert _ledger(app, pro.provider_id) == [("charge", 4500)], "nothing is credited before an operator approves"

    listed = pro.get(f"{pro.me}/credits").json()
    assert [item["id"] for item in listed["items"]] == [credit["id"]]
    assert (listed["capPercent"], listed["usedThisMonth"], listed["allowedThisMonth"]) == (20, 1, 1)
    with app.state.session_factory() as session:
        entry = session.scalar(select(AuditEntry).where(AuditEntry.action == "portal.credit.request"))
        assert entry.target == credit["id"] and entry.detail["reason"] == "other"


def test_one_request_per_lead(app, provider):
    pro = provider()
    _cap(app, pro.provider_id, 100)
    offer_id = accept_offer(app, lead_id=store_lead(app).id, provider_id=pro.provider_id)
    assert _ask(pro, offer_id).status_code == 201
    again = _ask(pro, offer_id, "outside_area")
    assert again.status_code == 409
    assert again.json()["error"] == "A credit was already requested for this lead."
    with app.state.session_factory() as session:
        assert session.scalar(select(CreditRequest.reason).where(CreditRequest.offer_id == offer_id)) == "wrong_phone"


def test_the_window_is_thirty_days_from_accepting(app, provider):
    pro = provider()
    _cap(app, pro.provider_id, 100)
    late = accept_offer(app, lead_id=store_lead(app, phone="5125550101").id, provider_id=pro.provider_id,
                        decided_at=utcnow() - timedelta(days=30, minutes=1))
    in_time = accept_offer(app, lead_id=store_lead(app, phone="5125550102").id, provider_id=pro.provider_id,
                           decided_at=utcnow() - timedelta(days=29, hours=23))

    refused = _ask(pro, late)
    assert refused.status_code == 422
    assert refused.json() == {"error": WINDOW_REFUSAL, "fields": {"offerId": WINDOW_REFUSAL}}
    assert _ask(pro, in_time).status_code == 201


@pytest.fixture
def settings(settings, request):
    """The portal's test settings, with a test's own changes (parametrized indirectly)."""
    return settings.model_copy(update=getattr(request, "param", {}))


@pytest.mark.parametrize("settings", [{"credit_window_days": 7}], indirect=True)
def test_the_window_follows_the_setting(app, provider):
    pro = provider()
    offer_id = accept_offer(app, lead_id=store_lead(app).id, provider_id=pro.provider_id,
                            decided_at=utcnow() - timedelta(days=8))
    assert _ask(pro, offer_id).json()["error"] == "Credits can be requested within 7 days of accepting a lead."


def test_only_an_accepted_lead_can_be_credited(app, provider):
    pro = provider()
    offer_id = open_offer(app, lead_id=store_lead(app).id, provider_id=pro.provider_id)
    answer = _ask(pro, offer_id)
    assert answer.status_code == 422
    assert answer.json()["fields"] == {"offerId": "Credits can be requested only on a lead you accepted."}


def test_reasons_and_words_are_checked_by_field(app, provider):
    pro = provider()
    offer_id = accept_offer(app, lead_id=store_lead(app).id, provider_id=pro.provider_id)
    for body, field in (({"reason": "other"}, "detail"), ({"reason": "other", "detail": "   "}, "detail"),
                        ({"reason": "other", "detail": "x" * 1001}, "detail"),
                        ({"reason": "wrong_phone", "detail": "bad\x00byte"}, "detail"),
                        ({"reason": "too_expensive"}, "reason"), ({}, "reason")):
        answer = pro.send("POST", f"{pro.me}/offers/{offer_id}/credit", body)
        assert answer.status_code == 422, body
        assert field in answer.json()["fields"], (body, answer.json())
    assert _ask(pro, offer_id, "other", detail="x" * 1000).status_code == 201


def test_the_monthly_cap_counts_waiting_and_approved_requests(app, provider):
    pro = provider()
    _cap(app, pro.provider_id, 50)
    offers = [accept_offer(app, lead_id=store_lead(app, phone=f"51255501{n:02d}").id, provider_id=pro.provider_id)
              for n in range(4)]
    assert [_ask(pro, offer_id).status_code for offer_id in offers[:2]] == [201, 201]

    refused = _ask(pro, offers[2])
    assert refused.status_code == 422
    assert refused.json()["error"] == "You have used this month's credits: 2 of 2."
    assert refused.json()["fields"] == {"reason": "You have used this month's credits: 2 of 2."}
    listed = pro.get(f"{pro.me}/credits").json()
    assert (listed["capPercent"], listed["usedThisMonth"], listed["allowedThisMonth"]) == (50, 2, 2)

    with app.state.session_factory() as session:  # an operator denied one: it no longer counts
        row = session.scalar(select(CreditRequest).where(CreditRequest.offer_id == offers[0]))
        row.status, row.decided_at, row.decided_by = CreditStatus.DENIED, utcnow(), "ops@example.com"
        session.commit()
    assert _ask(pro, offers[2]).status_code == 201


def test_last_months_requests_do_not_count_and_a_cap_of_zero_allows_none(app, provider):
    pro = provider()
    earlier = accept_offer(app, lead_id=store_lead(app, phone="5125550101").id, provider_id=pro.provider_id)
    offer_id = accept_offer(app, lead_id=store_lead(app, phone="5125550102").id, provider_id=pro.provider_id)
    assert _ask(pro, earlier).status_code == 201
    with app.state.session_factory() as session:
        row = session.scalar(select(CreditRequest).where(CreditRequest.offer_id == earlier))
        row.created_at = utcnow().replace(day=1, hour=0, minute=0) - timedelta(days=1)
        session.commit()
    assert pro.get(f"{pro.me}/credits").json()["usedThisMonth"] == 0

    _cap(app, pro.provider_id, 0)
    refused = _ask(pro, offer_id)
    assert refused.status_code == 422 and "Credits are turned off" in refused.json()["error"]
    assert pro.get(f"{pro.me}/credits").json()["allowedThisMonth"] == 0


def test_a_duplicate_the_provider_already_bought_is_credited_at_once(app, provider):
    pro = provider()
    _cap(app, pro.provider_id, 0)  # a proven duplicate needs no room under the cap
    first = store_lead(app, phone="5125550177", email="first@example.com")
    again = store_lead(app, phone="5125550188", email="first@example.com")  # same person, new phone
    accept_offer(app, lead_id=first.id, provider_id=pro.provider_id, price_cents=4500,
                 decided_at=utcnow() - timedelta(hours=2))
    offer_id = accept_offer(app, lead_id=again.id, provider_id=pro.provider_id, price_cents=5200)

    answer = _ask(pro, offer_id, "duplicate")
    assert answer.status_code == 201, answer.text
    credit = answer.json()
    assert (credit["status"], credit["amountCents"], credit["reasonLabel"]) == ("approved", 5200, "Duplicate")
    assert credit["decidedAt"] is not None and "already bought" in credit["decisionNote"]
    assert _ledger(app, pro.provider_id) == [("charge", 4500), ("charge", 5200), ("credit", -5200)]
    with app.state.session_factory() as session:
        row = session.get(CreditRequest, credit["id"])
        assert row.decided_by == "automatic"
        entry = session.scalar(select(LedgerEntry).where(LedgerEntry.kind == EntryKind.CREDIT))
        assert (entry.cause, entry.cause_id, entry.amount_cents, entry.description) == (
            "credit_request", row.id, 5200, "Credit: duplicate")
        assert (entry.lead_id, entry.created_by) == (again.id, "automatic")
    assert pro.get(f"{pro.me}/credits").json()["usedThisMonth"] == 0
    assert pro.get(f"{pro.me}/ledger").json()["balanceCents"] == 4500


def test_a_duplicate_claim_the_records_do_not_prove_waits_for_an_operator(app, provider):
    pro, other = provider(), provider()
    _cap(app, pro.provider_id, 100)
    first = store_lead(app, phone="5125550177")
    again = store_lead(app, phone="5125550177")
    stranger = store_lead(app, phone="5125550199", email="someone.else@example.com")
    # Another provider bought the first; this one bought only the second and a stranger's.
    accept_offer(app, lead_id=first.id, provider_id=other.provider_id, decided_at=utcnow() - timedelta(hours=1))
    mine = accept_offer(app, lead_id=again.id, provider_id=pro.provider_id)
    unrelated = accept_offer(app, lead_id=stranger.id, provider_id=pro.provider_id)
    assert _ask(pro, mine, "duplicate").json()["status"] == "pending"
    assert _ask(pro, unrelated, "duplicate").json()["status"] == "pending"
    # Buying the consumer's other request afterwards is the duplicate purchase, whichever lead came in first.
    second_purchase = accept_offer(app, lead_id=first.id, provider_id=pro.provider_id, decided_at=utcnow())
    assert _ask(pro, second_purchase, "duplicate").json()["status"] == "approved"


def test_another_providers_offer_and_path_answer_404_with_no_body(app, provider):
    pro, other = provider(), provider()
    theirs = accept_offer(app, lead_id=store_lead(app).id, provider_id=other.provider_id)
    for answer in (_ask(pro, theirs), _ask(pro, "no-such-offer"),
                   pro.send("POST", f"/providers/{other.provider_id}/offers/{theirs}/credit",
                            {"reason": "wrong_phone"}),
                   pro.get(f"/providers/{other.provider_id}/credits")):
        assert (answer.status_code, answer.content) == (404, b"")
    with app.state.session_factory() as session:
        assert session.scalar(select(CreditRequest)) is None


def test_asking_needs_the_session_and_the_csrf_token(app, provider):
    pro = provider()
    offer_id = accept_offer(app, lead_id=store_lead(app).id, provider_id=pro.provider_id)
    without = pro.send("POST", f"{pro.me}/offers/{offer_id}/credit", {"reason": "wrong_phone"}, csrf=False)
    assert without.status_code == 403
    pro.http.cookies.clear()
    assert _ask(pro, offer_id).status_code == 401
    assert pro.get(f"{pro.me}/credits").status_code == 401
    with app.state.session_factory() as session:
        assert session.scalar(select(CreditRequest)) is None
