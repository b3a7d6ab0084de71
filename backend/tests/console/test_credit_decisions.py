"""Credit requests in the console: the queue, an admin's approval (the credit in the provider's
ledger) or denial (with a note), each on the audit log; analysts read but cannot decide; the lead
price and credit cap set on the Providers page."""

from __future__ import annotations

from money_support import accept_offer, store_lead
from sqlalchemy import select

from servicematch.console.models import AuditEntry
from servicematch.console.sessions import CSRF_HEADER
from servicematch.delivery.models import Provider
from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import EntryKind, LedgerAccount, LedgerEntry
from servicematch.portal import credits
from servicematch.portal.models import CreditRequest

NEW = {"name": "Cool Air", "email": "dispatch@coolair.example", "services": ["hvac"], "states": ["TX"]}


def _provider(app, name: str = "Cool Air LLC") -> str:
    with app.state.session_factory() as session:
        provider = Provider(name=name, contact_email="dispatch@coolair.example", services=["hvac"], states=["TX"],
                            credit_cap_percent=100)
        session.add(provider)
        session.commit()
        return provider.id


def _requested(app, provider_id: str, *, phone: str, reason: str = "wrong_phone", detail: str | None = None,
               price_cents: int = 4500) -> str:
    """A credit request as the portal stores it, on a lead the provider accepted; its id."""
    lead = store_lead(app, phone=phone, email=f"{phone}@example.com")
    offer_id = accept_offer(app, lead_id=lead.id, provider_id=provider_id, price_cents=price_cents)
    with app.state.session_factory() as session:
        row = credits.request_credit(session, app.state.settings, session.get(Provider, provider_id), offer_id,
                                     credits.CreditAsk(reason=reason, detail=detail), now=utcnow())
        session.commit()
        return row.id


def _credits_in_ledger(app) -> list[tuple[str, int, str | None]]:
    """(provider id, amount, credit request id) of each credit: positive, it adds to the provider's funds."""
    with app.state.session_factory() as session:
        return [(owner_id, entry.amount_cents, entry.cause_id) for entry, owner_id in session.execute(
            select(LedgerEntry, LedgerAccount.owner_id).join(LedgerAccount)
            .where(LedgerEntry.kind == EntryKind.CREDIT))]


def _audit(app, action: str) -> list[AuditEntry]:
    with app.state.session_factory() as session:
        return list(session.scalars(select(AuditEntry).where(AuditEntry.action == action)))


def test_the_queue_names_the_provider_the_lead_the_reason_and_the_amount(admin, app):
    provider_id = _provider(app)
    first = _requested(app, provider_id, phone="5125550101", reason="other", detail="Said it was a prank.")
    second = _requested(app, provider_id, phone="5125550102", price_cents=3900)

    items = admin.get("/api/console/credits").json()["items"]
    assert [item["id"] for item in items] == [first, second], "oldest first: the longest waiting comes first"
    item = items[0]
    with app.state.session_factory() as session:
        reference = session.scalar(select(CreditRequest).where(CreditRequest.id == first)).lead_id
    assert {key: item[key] for key in ("status", "providerId", "providerName", "reason", "reasonLabel", "detail",
                                       "amountCents", "city", "state", "decidedBy")} == {
        "status": "pending", "providerId": provider_id, "providerName": "Cool Air LLC", "reason": "other",
        "reasonLabel": "Other", "detail": "Said it was a prank.", "amountCents": 4500, "city": "Austin",
        "state": "TX", "decidedBy": None}
    assert item["leadId"] == reference and len(item["leadReference"]) >= 6
    assert admin.get("/api/console/credits", params={"status": "approved"}).json()["items"] == []
    refused = admin.get("/api/console/credits", params={"status": "maybe"})
    assert refused.status_code == 422 and "status" in refused.json()["fields"]


def test_an_admin_approves_with_an_optional_note_and_the_credit_is_in_the_ledger(admin, app):
    provider_id = _provider(app)
    credit_id = _requested(app, provider_id, phone="5125550101")
    answer = admin.post(f"/api/console/credits/{credit_id}/approve", json={})
    assert answer.status_code == 200, answer.text
    decided = answer.json()
    assert decided["status"] == "approved" and decided["decidedBy"].startswith("admin-")
    assert decided["decidedAt"] is not None and decided["decisionNote"] is None
    assert _credits_in_ledger(app) == [(provider_id, 4500, credit_id)]
    [entry] = _audit(app, "credit.approve")
    assert entry.target == credit_id and entry.detail["amountCents"] == 4500

    again = admin.post(f"/api/console/credits/{credit_id}/approve", json={"note": "twice"})
    assert again.status_code == 409 and "already approved" in again.json()["error"]
    assert len(_credits_in_ledger(app)) == 1, "no second credit"
    assert [i["id"] for i in admin.get("/api/console/credits", params={"status": "approved"}).json()["items"]] == [
        credit_id]


def test_an_admin_denies_only_with_a_note_and_nothing_is_credited(admin, app):
    provider_id = _provider(app)
    credit_id = _requested(app, provider_id, phone="5125550101")
    for body in ({}, {"note": ""}, {"note": "   "}):
        refused = admin.post(f"/api/console/credits/{credit_id}/deny", json=body)
        assert refused.status_code == 422 and "note" in refused.json()["fields"], body
    answer = admin.post(f"/api/console/credits/{credit_id}/deny", json={"note": "The phone answered when we called."})
    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["decisionNote"]) == ("denied",
                                                                        "The phone answered when we called.")
    assert _credits_in_ledger(app) == []
    [entry] = _audit(app, "credit.deny")
    assert entry.target == credit_id and entry.detail["note"] == "The phone answered when we called."
    assert admin.post(f"/api/console/credits/{credit_id}/approve", json={}).status_code == 409


def test_an_approval_note_is_kept_and_an_unknown_request_is_404(admin, app):
    credit_id = _requested(app, _provider(app), phone="5125550101")
    answer = admin.post(f"/api/console/credits/{credit_id}/approve", json={"note": "Number disconnected: checked."})
    assert answer.json()["decisionNote"] == "Number disconnected: checked."
    assert admin.post("/api/console/credits/no-such-request/approve", json={}).status_code == 404


def test_an_analyst_reads_the_queue_but_cannot_decide(analyst, app):
    credit_id = _requested(app, _provider(app), phone="5125550101")
    assert [i["id"] for i in analyst.get("/api/console/credits").json()["items"]] == [credit_id]
    assert analyst.post(f"/api/console/credits/{credit_id}/approve", json={}).status_code == 403
    assert analyst.post(f"/api/console/credits/{credit_id}/deny", json={"note": "no"}).status_code == 403
    with app.state.session_factory() as session:
        assert session.get(CreditRequest, credit_id).status == "pending"
    assert _credits_in_ledger(app) == [] and _audit(app, "credit.approve") == []


def test_a_decision_needs_the_csrf_token(admin, app):
    credit_id = _requested(app, _provider(app), phone="5125550101")
    del admin.headers[CSRF_HEADER]
    assert admin.post(f"/api/console/credits/{credit_id}/approve", json={}).status_code == 403
    assert _credits_in_ledger(app) == []


def test_operators_set_a_providers_lead_price_and_credit_cap(admin, app):
    provider = admin.post("/api/console/providers", json=NEW).json()
    assert (provider["leadPriceCents"], provider["creditCapPercent"]) == (None, 20)
    path = f"/api/console/providers/{provider['id']}"
    changed = admin.patch(path, json={"leadPriceCents": 5500, "creditCapPercent": 10})
    assert changed.status_code == 200, changed.text
    assert (changed.json()["leadPriceCents"], changed.json()["creditCapPercent"]) == (5500, 10)
    with app.state.session_factory() as session:
        stored = session.get(Provider, provider["id"])
        assert (stored.lead_price_cents, stored.credit_cap_percent) == (5500, 10)
    for body, field in (({"creditCapPercent": 101}, "creditCapPercent"), ({"creditCapPercent": -1}, "creditCapPercent"),
                        ({"creditCapPercent": None}, "creditCapPercent"), ({"leadPriceCents": 0}, "leadPriceCents"),
                        ({"leadPriceCents": 10_000_01}, "leadPriceCents")):
        refused = admin.patch(path, json=body)
        assert refused.status_code == 422 and field in refused.json()["fields"], (body, refused.json())
    back = admin.patch(path, json={"leadPriceCents": None}).json()
    assert (back["leadPriceCents"], back["creditCapPercent"]) == (None, 10), "null: the service's list price"
    actions = [e["action"] for e in admin.get("/api/console/audit").json()["items"]]
    assert actions.count("provider.change") == 2
