"""Invoices in the console: every account's by month and status, the overdue ones with their days and
account, one with its lines and PDF, and an admin's mark-paid (a payment of what the invoice lacks,
audited); analysts read but never mark."""

from __future__ import annotations

from datetime import timedelta

import pytest
from console_api_support import sign_in
from fastapi.testclient import TestClient
from invoice_support import (
    AFTER_MONTH,
    ISSUED,
    MONTH,
    charge,
    invoice_of,
    issue,
    ledger_account,
    payment,
)
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.console import invoices as console_invoices
from servicematch.kernel.clock import utcnow
from servicematch.ledger.holds import hold
from servicematch.ledger.models import (
    AccountKind,
    EntryKind,
    HoldReason,
    LedgerAccount,
    LedgerEntry,
    Payment,
)


@pytest.fixture
def month(app):
    """A buyer owing $45.50 (net 10), a provider owing $30.00, and a buyer who paid: March 2025, issued."""
    owing = ledger_account(app, AccountKind.BUYER, "buyer-1", name="Leads Direct LLC", net_days=10)
    charge(app, owing, 4_550)
    provider = ledger_account(app, AccountKind.PROVIDER, "provider-1", name="Cool Air")
    charge(app, provider, 3_000)
    paid = ledger_account(app, AccountKind.BUYER, "buyer-2", name="Prompt Payer")
    charge(app, paid, 1_000)
    payment(app, paid, 1_000)
    issue(app)
    return {"owing": owing, "provider": provider, "paid": paid}


def _analyst(app, add_operator) -> TestClient:
    client = TestClient(app)
    sign_in(client, add_operator("analyst"))
    return client


def test_the_list_filters_by_status_and_month_and_overdue_names_the_account_and_the_days(admin, month):
    everything = admin.get("/api/console/invoices").json()
    assert [row["label"] for row in everything["items"]] == ["INV-000003", "INV-000002", "INV-000001"]
    assert everything["nextCursor"] is None
    overdue = admin.get("/api/console/invoices", params={"overdue": "true"}).json()["items"]
    days = (utcnow() - (ISSUED + timedelta(days=10))).days
    assert [(row["accountName"], row["accountKind"], row["amountDue"], row["overdue"]) for row in overdue] == [
        ("Leads Direct LLC", "buyer", 45.5, True), ("Cool Air", "provider", 30.0, True)]
    assert overdue[0]["daysOverdue"] in (days, days + 1) and overdue[0]["ownerId"] == "buyer-1"
    paid = admin.get("/api/console/invoices", params={"status": "paid"}).json()["items"]
    assert [(row["accountName"], row["amountDue"], row["overdue"], row["daysOverdue"]) for row in paid] == [
        ("Prompt Payer", 0.0, False, 0)]
    assert admin.get("/api/console/invoices", params={"month": "2025-04"}).json()["items"] == []
    assert len(admin.get("/api/console/invoices", params={"month": MONTH}).json()["items"]) == 3
    for bad in ({"status": "late"}, {"month": "2025-3"}, {"cursor": "x1"}):
        answer = admin.get("/api/console/invoices", params=bad)
        assert answer.status_code == 422 and answer.json()["fields"], bad


def test_the_list_pages_by_number(admin, month, monkeypatch):
    monkeypatch.setattr(console_invoices, "PAGE", 2)
    first = admin.get("/api/console/invoices").json()
    second = admin.get("/api/console/invoices", params={"cursor": first["nextCursor"]}).json()
    assert [row["number"] for row in first["items"] + second["items"]] == [3, 2, 1]
    assert second["nextCursor"] is None


def test_one_invoice_with_its_lines_and_its_pdf(admin, month, app):
    invoice = invoice_of(app, month["owing"])
    detail = admin.get(f"/api/console/invoices/{invoice.id}").json()
    assert (detail["label"], detail["accountName"], detail["closingBalance"], detail["stillDue"],
            detail["lineCount"]) == ("INV-000001", "Leads Direct LLC", -45.5, 45.5, 1)
    assert detail["lines"][0]["amount"] == -45.5 and detail["lines"][0]["kind"] == "charge"
    pdf = admin.get(f"/api/console/invoices/{invoice.id}.pdf")
    assert pdf.headers["content-type"] == "application/pdf" and b"INV-000001" in pdf.content
    assert 'filename="INV-000001.pdf"' in pdf.headers["content-disposition"]
    assert admin.get("/api/console/invoices/nope").status_code == 404
    assert admin.get("/api/console/invoices/nope.pdf").status_code == 404


def test_an_admin_marks_an_invoice_paid_recording_what_it_lacks_and_the_audit_log_says_so(admin, month, app):
    invoice = invoice_of(app, month["owing"])
    charge(app, month["owing"], 2_000, at=AFTER_MONTH)  # April's: not this invoice's
    with app.state.session_factory() as session:  # paused for this overdue invoice
        hold(session, session.get(LedgerAccount, month["owing"]), HoldReason.OVERDUE, utcnow())
        session.commit()
    path = f"/api/console/invoices/{invoice.id}/mark-paid"
    assert admin.post(path, json={"note": "  "}).status_code == 422
    assert admin.post(path, json={"note": "Wire 4471", "method": "bitcoin"}).status_code == 422

    marked = admin.post(path, json={"note": "Wire 4471", "method": "wire"})

    assert marked.status_code == 200, marked.text
    answer = marked.json()
    assert (answer["recorded"], answer["invoice"]["status"], answer["invoice"]["overdue"]) == (45.5, "paid", False)
    with app.state.session_factory() as session:
        recorded = session.get(Payment, answer["paymentId"])
        assert (recorded.amount_cents, recorded.method, recorded.invoice_id, recorded.note) == (
            4_550, "wire", invoice.id, "Wire 4471")
        [entry] = session.scalars(select(LedgerEntry).where(LedgerEntry.kind == EntryKind.PAYMENT,
                                                            LedgerEntry.account_id == month["owing"]))
        assert entry.amount_cents == 4_550 and entry.created_by.startswith("admin-")
        owing = session.get(LedgerAccount, month["owing"])
        assert owing.balance_cents == -2_000 and owing.hold_reason is None  # leads again
        [audited] = session.scalars(select(AuditEntry).where(AuditEntry.action == "invoice.mark_paid"))
        assert audited.target == invoice.id and audited.detail["amountCents"] == 4_550
    assert admin.post(path, json={"note": "again"}).status_code == 409
    assert admin.post("/api/console/invoices/nope/mark-paid", json={"note": "x"}).status_code == 404


def test_an_analyst_reads_invoices_but_cannot_mark_one_paid(app, add_operator, month):
    analyst = _analyst(app, add_operator)
    assert len(analyst.get("/api/console/invoices").json()["items"]) == 3
    invoice = invoice_of(app, month["provider"])
    refused = analyst.post(f"/api/console/invoices/{invoice.id}/mark-paid", json={"note": "Cheque 12"})
    assert refused.status_code == 403
    assert invoice_of(app, month["provider"]).status == "open"
    assert TestClient(app).get("/api/console/invoices").status_code == 401
