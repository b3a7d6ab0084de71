"""An admin's adjustments and reversals (POST /api/console/accounts/{id}/adjustments,
/api/console/entries/{id}/reverse): new entries with a note, on the audit log; a reversal undoes
exactly one entry, once; an analyst reads but changes nothing; bad input writes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from console_api_support import sign_in
from console_money_support import add_entry, add_invoice, make_account
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from servicematch.console.models import AuditEntry
from servicematch.console.sessions import CSRF_HEADER
from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import (
    Cause,
    EntryKind,
    HoldReason,
    Invoice,
    LedgerAccount,
    LedgerEntry,
)


@pytest.fixture
def analyst_browser(app, add_operator):
    with TestClient(app) as browser:
        sign_in(browser, add_operator("analyst"))
        yield browser


def _adjust(client, account_id: str, **body):
    return client.post(f"/api/console/accounts/{account_id}/adjustments", json=body)


def _reverse(client, entry_id: int, note: str = "Charged by mistake."):
    return client.post(f"/api/console/entries/{entry_id}/reverse", json={"note": note})


def _ledger(app, account_id: str) -> tuple[int, list[tuple]]:
    """The account's balance and its entries (kind, amount, cause, cause id, note, by), oldest first."""
    with app.state.session_factory() as session:
        entries = session.scalars(select(LedgerEntry).where(LedgerEntry.account_id == account_id)
                                  .order_by(LedgerEntry.id))
        return (session.get(LedgerAccount, account_id).balance_cents,
                [(e.kind, e.amount_cents, e.cause, e.cause_id, e.note, e.created_by) for e in entries])


def _audit(app, action: str) -> list[AuditEntry]:
    with app.state.session_factory() as session:
        return list(session.scalars(select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id)))


def test_an_admin_adjusts_either_way_with_a_note_on_the_record(admin, app):
    account = make_account(app, name="Acme Leads")
    answer = _adjust(admin, account, amount=12.5, note="  Goodwill: two leads were slow.  ")
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert (body["entry"]["kind"], body["entry"]["amount"], body["entry"]["balanceAfter"]) == ("adjustment", 12.5, 12.5)
    assert body["entry"]["note"] == "Goodwill: two leads were slow." and body["entry"]["reversible"] is True
    assert body["account"]["balance"] == 12.5
    assert _adjust(admin, account, amount=-20.01, note="Setup fee.").status_code == 201
    balance, entries = _ledger(app, account)
    assert balance == 1250 - 2001
    operator = entries[0][5]
    assert operator.startswith("admin-") and [(kind, cents, cause, note) for kind, cents, cause, _id, note, _by
                                              in entries] == [
        ("adjustment", 1250, Cause.ADJUSTMENT, "Goodwill: two leads were slow."),
        ("adjustment", -2001, Cause.ADJUSTMENT, "Setup fee.")]
    assert entries[0][3] != entries[1][3], "each adjustment is a cause of its own"
    audited = _audit(app, "ledger.adjust")
    assert [(row.target, row.operator_email, row.detail["amountCents"], row.detail["note"]) for row in audited] == [
        (account, operator, 1250, "Goodwill: two leads were slow."), (account, operator, -2001, "Setup fee.")]
    assert audited[0].detail["entryId"] == body["entry"]["id"] and audited[0].detail["kind"] == "buyer"


@pytest.mark.parametrize("body, field", [
    ({"amount": 10}, "note"),
    ({"amount": 10, "note": "   "}, "note"),
    ({"amount": 10, "note": "x" * 2001}, "note"),
    ({"amount": 10, "note": "ok\x00"}, "note"),
    ({"note": "Why"}, "amount"),
    ({"amount": 0, "note": "Why"}, "amount"),
    ({"amount": 0.001, "note": "Why"}, "amount"),
    ({"amount": 12.345, "note": "Why"}, "amount"),
    ({"amount": 100_000.01, "note": "Why"}, "amount"),
    ({"amount": -100_000.01, "note": "Why"}, "amount"),
    ({"amount": "12.50", "note": "Why"}, "amount"),
    ({"amount": True, "note": "Why"}, "amount"),
    ({"amount": 1e308, "note": "Why"}, "amount"),
    ({"amount": 10, "note": "Why", "by": "someone"}, "by"),
])
def test_an_adjustment_needs_a_note_and_a_bounded_amount_in_cents(admin, app, body, field):
    account = make_account(app)
    answer = _adjust(admin, account, **body)
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"], answer.json()
    assert _ledger(app, account) == (0, []) and _audit(app, "ledger.adjust") == []


def test_the_largest_adjustment_passes(admin, app):
    account = make_account(app)
    assert _adjust(admin, account, amount=-100_000, note="Written off.").status_code == 201
    assert _adjust(admin, account, amount=100_000.0, note="Back.").status_code == 201
    assert _ledger(app, account)[0] == 0


def test_a_reversal_undoes_exactly_one_entry_once(admin, app):
    account = make_account(app, name="Acme Leads")
    payment = add_entry(app, account, EntryKind.PAYMENT, 10_000)
    charge = add_entry(app, account, EntryKind.CHARGE, -3_000)
    add_entry(app, account, EntryKind.CHARGE, -2_000)
    answer = _reverse(admin, charge)
    assert answer.status_code == 201, answer.text
    reversal = answer.json()["entry"]
    assert (reversal["kind"], reversal["amount"], reversal["cause"], reversal["causeId"], reversal["reverses"]) == (
        "reversal", 30.0, Cause.ENTRY, str(charge), charge)
    assert reversal["description"].startswith(f"Reversal of entry {charge}") and answer.json()["account"]["balance"] \
        == 80.0
    assert _ledger(app, account)[0] == 10_000 - 2_000

    again = _reverse(admin, charge, "Once more.")
    assert again.status_code == 409 and str(reversal["id"]) in again.json()["error"]
    assert _reverse(admin, reversal["id"]).status_code == 409, "a reversal is not reversed"
    balance, entries = _ledger(app, account)
    assert balance == 8_000 and [kind for kind, *_rest in entries] == ["payment", "charge", "charge", "reversal"]
    # The untouched entries stay reversible; the reversed one says by what.
    shown = {e["id"]: e for e in admin.get(f"/api/console/accounts/{account}").json()["entries"]}
    assert shown[charge]["reversedBy"] == reversal["id"] and not shown[charge]["reversible"]
    assert shown[payment]["reversible"] and shown[payment]["reversedBy"] is None
    [audited] = _audit(app, "ledger.reverse")
    assert audited.target == str(charge) and audited.detail["reversalId"] == reversal["id"]
    assert (audited.detail["amountCents"], audited.detail["kind"], audited.detail["note"]) == (
        -3_000, "charge", "Charged by mistake.")


def test_what_is_not_reversed(admin, app):
    account = make_account(app)
    failed = add_entry(app, account, EntryKind.PAYMENT_FAILED, 0)
    assert _reverse(admin, failed).status_code == 409
    assert admin.post("/api/console/entries/999999999/reverse", json={"note": "x"}).status_code == 404
    charge = add_entry(app, account, EntryKind.CHARGE, -100)
    for body in ({}, {"note": ""}, {"note": " \n "}):
        answer = admin.post(f"/api/console/entries/{charge}/reverse", json=body)
        assert answer.status_code == 422 and "note" in answer.json()["fields"]
    for bad in ("abc", "1" * 19, "-1"):
        assert admin.post(f"/api/console/entries/{bad}/reverse", json={"note": "x"}).status_code == 422
    assert [kind for kind, *_rest in _ledger(app, account)[1]] == ["payment_failed", "charge"]
    assert _audit(app, "ledger.reverse") == []


def test_an_analyst_reads_the_money_but_changes_nothing(admin, analyst_browser, app):
    account = make_account(app)
    charge = add_entry(app, account, EntryKind.CHARGE, -500)
    assert analyst_browser.get(f"/api/console/accounts/{account}").status_code == 200
    assert _adjust(analyst_browser, account, amount=5, note="Please.").status_code == 403
    assert _reverse(analyst_browser, charge).status_code == 403
    # Without the session's CSRF token, an admin changes nothing either.
    token = admin.headers.pop(CSRF_HEADER)
    assert _adjust(admin, account, amount=5, note="Please.").status_code == 403
    admin.headers[CSRF_HEADER] = token
    assert _ledger(app, account)[0] == -500 and len(_ledger(app, account)[1]) == 1
    assert _audit(app, "ledger.adjust") == _audit(app, "ledger.reverse") == []
    assert _adjust(admin, "no-such-account", amount=5, note="x").status_code == 404


def test_money_in_the_accounts_favour_settles_its_invoice_and_lifts_its_hold(admin, app):
    account = make_account(app, hold_reason=HoldReason.FUNDS, held_since=utcnow())
    add_entry(app, account, EntryKind.CHARGE, -3_000, at=utcnow() - timedelta(days=40))
    invoice = add_invoice(app, account, f"{utcnow() - timedelta(days=40):%Y-%m}", due_at=utcnow() - timedelta(days=5),
                          due_cents=3_000)
    assert _adjust(admin, account, amount=10, note="Part of it, as agreed.").status_code == 201
    with app.state.session_factory() as session:
        assert session.get(Invoice, invoice).status == "open"
        assert session.get(LedgerAccount, account).hold_reason == HoldReason.FUNDS, "it still cannot pay"
    answer = _adjust(admin, account, amount=25, note="Goodwill for the rest.")
    assert answer.status_code == 201
    with app.state.session_factory() as session:
        assert session.get(Invoice, invoice).status == "paid"
        assert session.get(LedgerAccount, account).hold_reason is None
        assert session.scalar(select(func.count()).select_from(LedgerEntry)) == 3
    assert answer.json()["account"]["holdReason"] is None
