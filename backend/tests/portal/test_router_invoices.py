"""A provider's invoices in the portal: its own list, one with every line, its PDF; another provider's
invoice, or another provider's id, answers 404 with no body, and so does a buyer's invoice."""

from __future__ import annotations

from fastapi.testclient import TestClient
from invoice_support import charge, invoice_of, issue, ledger_account

from servicematch.ledger.models import AccountKind


def test_a_provider_reads_its_own_invoices_and_nobody_elses(app, provider):
    pro, rival = provider(), provider()
    mine = ledger_account(app, AccountKind.PROVIDER, pro.provider_id, name="Cool Air LLC", net_days=7)
    charge(app, mine, 4_500)
    theirs = ledger_account(app, AccountKind.PROVIDER, rival.provider_id, name="Rival Air")
    charge(app, theirs, 2_000)
    buyer = ledger_account(app, AccountKind.BUYER, "buyer-1", name="Leads Direct LLC")
    charge(app, buyer, 3_000)
    issue(app)
    invoice_id = invoice_of(app, mine).id

    listed = pro.get(f"{pro.me}/invoices").json()
    assert [(item["id"], item["amountDue"], item["status"]) for item in listed["items"]] == [(invoice_id, 45.0, "open")]
    detail = pro.get(f"{pro.me}/invoices/{invoice_id}").json()
    assert (detail["accountName"], detail["dueAt"], detail["lineCount"]) == ("Cool Air LLC", "2025-04-08T06:00:00Z", 1)
    assert detail["lines"][0]["amount"] == -45.0 and len(detail["lines"][0]["reference"]) == 9
    pdf = pro.http.get(f"/api/pro{pro.me}/invoices/{invoice_id}.pdf")
    assert pdf.headers["content-type"] == "application/pdf" and b"Cool Air LLC" in pdf.content

    for other in (invoice_of(app, theirs).id, invoice_of(app, buyer).id, "no-such-invoice"):
        for path in (f"{pro.me}/invoices/{other}", f"{pro.me}/invoices/{other}.pdf"):
            answer = pro.get(path)
            assert (answer.status_code, answer.content) == (404, b""), path
    for path in (f"/providers/{rival.provider_id}/invoices", f"/providers/{rival.provider_id}/invoices/{invoice_id}"):
        answer = pro.get(path)
        assert (answer.status_code, answer.content) == (404, b""), path
    assert rival.get(f"{rival.me}/invoices/{invoice_id}").status_code == 404
    assert TestClient(app).get(f"/api/pro{pro.me}/invoices").status_code == 401


def test_a_provider_without_an_account_has_no_invoices(provider):
    pro = provider()
    assert pro.get(f"{pro.me}/invoices").json() == {"items": [], "nextCursor": None}
    assert pro.get(f"{pro.me}/invoices?cursor=abc").status_code == 422
