"""A buyer's invoices in the portal and through its API keys: its own list, one with every line, its
PDF; another buyer's invoice answers 404 with no body, and so does one of a provider."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from invoice_support import AFTER_MONTH, charge, invoice_of, issue, ledger_account, payment

from servicematch.ledger import invoice_views
from servicematch.ledger.models import AccountKind


@pytest.fixture
def invoiced(app, make_buyer):
    """Two buyers and a provider, each with March's invoice: (buyer id, its invoice id, the other
    buyer's invoice id, the provider's invoice id)."""
    buyer_id, other_id = make_buyer("Leads Direct LLC"), make_buyer("Other Leads")
    mine = ledger_account(app, AccountKind.BUYER, buyer_id, name="Leads Direct LLC", net_days=10)
    charge(app, mine, 3_000)
    charge(app, mine, 4_550)
    payment(app, mine, 2_000)
    theirs = ledger_account(app, AccountKind.BUYER, other_id, name="Other Leads")
    charge(app, theirs, 9_900)
    provider = ledger_account(app, AccountKind.PROVIDER, "provider-1", name="Cool Air")
    charge(app, provider, 1_000)
    issue(app)
    return buyer_id, invoice_of(app, mine).id, invoice_of(app, theirs).id, invoice_of(app, provider).id


def test_a_buyers_person_reads_its_invoices_one_with_every_line_and_its_pdf(invoiced, buyer_browser):
    buyer_id, invoice_id, _, _ = invoiced
    browser = buyer_browser(buyer_id)

    listed = browser.get("/api/buyer/invoices").json()
    assert [item["id"] for item in listed["items"]] == [invoice_id] and listed["nextCursor"] is None
    row = listed["items"][0]
    assert (row["month"], row["status"], row["amountDue"], row["charges"], row["payments"], row["overdue"]) == (
        "2025-03", "open", 55.5, -75.5, 20.0, True)
    detail = browser.get(f"/api/buyer/invoices/{invoice_id}").json()
    assert detail["accountName"] == "Leads Direct LLC" and detail["lineCount"] == 3
    assert [(line["kind"], line["amount"]) for line in detail["lines"]] == [
        ("charge", -30.0), ("charge", -45.5), ("payment", 20.0)]
    assert all(line["reference"] for line in detail["lines"][:2]) and detail["lines"][2]["reference"] is None
    assert detail["dueAt"] == "2025-04-11T06:00:00Z" and detail["stillDue"] == 55.5
    pdf = browser.get(f"/api/buyer/invoices/{invoice_id}.pdf")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.headers["cache-control"] == "no-store" and b"Leads Direct LLC" in pdf.content


def test_another_buyers_invoice_and_a_providers_are_404_with_no_body(invoiced, buyer_browser, key_client):
    buyer_id, _, other_invoice, provider_invoice = invoiced
    browser = buyer_browser(buyer_id)
    for client, prefix in ((browser, "/api/buyer"), (key_client(buyer_id), "/api/buyer/v1")):
        for invoice_id in (other_invoice, provider_invoice, "no-such-invoice"):
            for path in (f"{prefix}/invoices/{invoice_id}", f"{prefix}/invoices/{invoice_id}.pdf"):
                answer = client.get(path)
                assert (answer.status_code, answer.content) == (404, b""), path
        assert [item["label"] for item in client.get(f"{prefix}/invoices").json()["items"]] == ["INV-000001"]


def test_the_api_key_reads_the_same_invoices_and_nobody_else_reads_any(app, invoiced, key_client):
    buyer_id, invoice_id, _, _ = invoiced
    api = key_client(buyer_id)
    assert api.get(f"/api/buyer/v1/invoices/{invoice_id}").json()["label"] == "INV-000001"
    assert api.get(f"/api/buyer/v1/invoices/{invoice_id}.pdf").content.startswith(b"%PDF-")
    anonymous = TestClient(app)
    assert anonymous.get("/api/buyer/invoices").status_code == 401
    assert anonymous.get(f"/api/buyer/invoices/{invoice_id}.pdf").status_code == 401


def test_a_buyer_without_an_account_has_no_invoices_and_the_list_pages(app, make_buyer, buyer_browser, monkeypatch):
    assert buyer_browser(make_buyer()).get("/api/buyer/invoices").json() == {"items": [], "nextCursor": None}
    buyer_id = make_buyer("Monthly Buyer")
    account = ledger_account(app, AccountKind.BUYER, buyer_id, name="Monthly Buyer")
    charge(app, account, 1_000)
    issue(app)
    charge(app, account, 1_000, at=AFTER_MONTH)
    issue(app, "2025-04", AFTER_MONTH.replace(month=5))
    monkeypatch.setattr(invoice_views, "PAGE", 1)
    browser = buyer_browser(buyer_id)
    first = browser.get("/api/buyer/invoices").json()
    second = browser.get("/api/buyer/invoices", params={"cursor": first["nextCursor"]}).json()
    assert [item["month"] for item in first["items"] + second["items"]] == ["2025-04", "2025-03"]
    assert second["nextCursor"] is None
    assert browser.get("/api/buyer/invoices", params={"cursor": "-1"}).status_code == 422
