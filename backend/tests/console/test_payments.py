"""Payments in the console: an admin records money received by wire or cheque (credited at once, on
the audit log), nobody else does; every operator reads the payments, newest first, of every account
or of one; bad amounts and notes are refused by name."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.console.sessions import CSRF_HEADER
from servicematch.ledger.models import AccountKind, EntryKind, LedgerAccount, LedgerEntry
from servicematch.ledger.postings import account_for


def _account(app, kind: str = AccountKind.BUYER, owner: str = "buyer-1", name: str = "Leads Direct") -> str:
    with app.state.session_factory() as session:
        account = account_for(session, kind, owner, name=name)
        session.commit()
        return account.id


def _record(client, account_id: str, **body):
    return client.post(f"/api/console/accounts/{account_id}/payments",
                       json={"amount": 1250.5, "method": "wire", "note": "Wire ref 8812", **body})


def test_an_admin_records_a_wire_and_the_balance_rises_at_once_on_the_record(app, admin):
    account_id = _account(app)
    answer = _record(admin, account_id)
    assert answer.status_code == 201, answer.text
    recorded = answer.json()
    assert recorded["balance"] == 1250.5
    shown = recorded["payment"]
    assert (shown["amount"], shown["method"], shown["status"], shown["note"], shown["accountName"]) == (
        1250.5, "wire", "succeeded", "Wire ref 8812", "Leads Direct")
    assert shown["recordedBy"].startswith("admin-") and shown["accountKind"] == "buyer"
    with app.state.session_factory() as session:
        [entry] = session.scalars(select(LedgerEntry).where(LedgerEntry.account_id == account_id)).all()
        assert (entry.kind, entry.amount_cents, entry.cause_id) == (EntryKind.PAYMENT, 125_050, shown["id"])
        [audited] = session.scalars(select(AuditEntry).where(AuditEntry.action == "payment.record")).all()
        assert audited.target == account_id and audited.detail["amountCents"] == 125_050
        assert audited.detail["paymentId"] == shown["id"] and audited.operator_email == shown["recordedBy"]


def test_only_an_admin_with_the_csrf_token_records_and_nothing_moves_otherwise(app, client, add_operator,
                                                                                 analyst):
    account_id = _account(app)
    assert _record(analyst, account_id).status_code == 403
    assert analyst.get("/api/console/payments").status_code == 200
    client.headers.pop(CSRF_HEADER)
    assert _record(client, account_id).status_code == 403
    client.cookies.clear()
    assert _record(client, account_id).status_code == 401
    with app.state.session_factory() as session:
        assert session.get(LedgerAccount, account_id).balance_cents == 0


@pytest.mark.parametrize(("body", "field"), [
    ({"amount": 0}, "amount"), ({"amount": -5}, "amount"), ({"amount": 12.345}, "amount"),
    ({"amount": "lots"}, "amount"), ({"amount": True}, "amount"), ({"amount": 10_000_001}, "amount"),
    ({"method": "card"}, "method"), ({"note": ""}, "note"), ({"note": "   "}, "note"), ({"note": "x" * 2001}, "note"),
    ({"extra": 1}, "extra"),
])
def test_a_bad_amount_method_or_note_is_refused_by_name(app, admin, body, field):
    account_id = _account(app)
    answer = _record(admin, account_id, **body)
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"]
    with app.state.session_factory() as session:
        assert session.get(LedgerAccount, account_id).balance_cents == 0


def test_an_unknown_account_is_a_404(admin):
    answer = _record(admin, "no-such-account")
    assert answer.status_code == 404 and answer.json()["error"] == "No account with this id."
    assert _record(admin, "x" * 37).status_code == 422


def test_the_payments_of_every_account_or_one_newest_first(app, admin):
    buyer = _account(app)
    provider = _account(app, AccountKind.PROVIDER, "provider-1", "Cool Air LLC")
    for account_id, note in ((buyer, "first"), (provider, "second"), (buyer, "third")):
        assert _record(admin, account_id, note=note, method="cheque").status_code == 201
    listed = admin.get("/api/console/payments").json()
    assert [p["note"] for p in listed["items"]] == ["third", "second", "first"] and listed["nextCursor"] is None
    mine = admin.get("/api/console/payments", params={"accountId": provider}).json()["items"]
    assert [(p["note"], p["accountKind"], p["ownerId"]) for p in mine] == [("second", "provider", "provider-1")]
    assert admin.get("/api/console/payments", params={"cursor": "%%%"}).status_code == 422
