"""The console's money (GET /api/console/money, /accounts, /accounts/{id}): what the accounts owe and
how late, by the open invoices as the ledger settles them; the cash that moved per day; the last
reconciliation; every account's balance and holds; an account's entries with the balance after each.
Every figure is the ledger's, to the cent."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from buyer_fixtures import make_buyer  # noqa: F401 (fixture)
from console_api_support import sign_in
from console_money_support import (
    account_of,
    add_entry,
    add_invoice,
    make_account,
)
from fastapi.testclient import TestClient
from sold_leads import store_lead

from servicematch.kernel.clock import utcnow
from servicematch.ledger.invoice_settling import outstanding_cents
from servicematch.ledger.models import (
    AccountKind,
    EntryKind,
    HoldReason,
    Invoice,
    LedgerCheck,
    Terms,
)


@pytest.fixture
def analyst_browser(app, add_operator):
    """An analyst's browser beside the admin's."""
    with TestClient(app) as browser:
        sign_in(browser, add_operator("analyst"))
        yield browser


def _month(day: date) -> str:
    return f"{day:%Y-%m}"


def _in(month_start: date, day: int = 2) -> datetime:
    """Noon on a day of the month that starts on `month_start`."""
    return datetime(month_start.year, month_start.month, day, 12, tzinfo=UTC)


def _months_back(count: int) -> date:
    first = utcnow().date().replace(day=1)
    for _ in range(count):
        first = (first - timedelta(days=1)).replace(day=1)
    return first


def _days_ago(days: int) -> datetime:
    return datetime.combine(utcnow().date() - timedelta(days=days), datetime.min.time(), tzinfo=UTC)


def test_receivables_age_what_the_open_invoices_still_lack(admin, app):
    older, last = _months_back(2), _months_back(1)
    # Owes $120: $100 invoiced (due 45 days ago), $30 paid since, $50 charged after the month.
    acme = make_account(app, name="Acme Leads", terms=Terms.CREDIT)
    add_entry(app, acme, EntryKind.CHARGE, -10_000, at=_in(older))
    acme_invoice = add_invoice(app, acme, _month(older), due_at=_days_ago(45), due_cents=10_000)
    add_entry(app, acme, EntryKind.PAYMENT, 3_000, at=_in(last, 3))
    add_entry(app, acme, EntryKind.CHARGE, -5_000, at=_in(last, 4))
    # Owes $115: $40 invoiced 70 days late, $50 more on a later invoice 10 days late, $25 not invoiced.
    bolt = make_account(app, name="Bolt Media", terms=Terms.CREDIT)
    add_entry(app, bolt, EntryKind.CHARGE, -4_000, at=_in(older))
    add_invoice(app, bolt, _month(older), due_at=_days_ago(70), due_cents=4_000)
    add_entry(app, bolt, EntryKind.CHARGE, -5_000, at=_in(last))
    bolt_invoice = add_invoice(app, bolt, _month(last), due_at=_days_ago(10), due_cents=9_000)
    add_entry(app, bolt, EntryKind.CHARGE, -2_500)
    # Holds $50 of funds.
    add_entry(app, make_account(app, AccountKind.PROVIDER, name="Cool Air"), EntryKind.PAYMENT, 5_000)
    # Owes $20 with no open invoice (a paid one, past due, counts for nothing).
    dune = make_account(app, name="Dune Leads")
    add_entry(app, dune, EntryKind.CHARGE, -2_000)
    add_invoice(app, dune, _month(older), due_at=_days_ago(50), due_cents=2_000, status="paid")
    # Paid in full since its invoice: owes nothing, so nothing is overdue.
    echo = make_account(app, name="Echo Calls")
    add_entry(app, echo, EntryKind.CHARGE, -3_000, at=_in(older))
    add_invoice(app, echo, _month(older), due_at=_days_ago(40), due_cents=3_000)
    add_entry(app, echo, EntryKind.PAYMENT, 3_000, at=_in(last))
    # Owes $10 on an invoice due today: the last day to pay, not late yet.
    fern = make_account(app, name="Fern Home")
    add_entry(app, fern, EntryKind.CHARGE, -1_000, at=_in(last))
    add_invoice(app, fern, _month(last), due_at=_days_ago(0) + timedelta(hours=1), due_cents=1_000)

    receivables = admin.get("/api/console/money").json()["receivables"]
    assert receivables == {"owed": 265.0, "current": 105.0, "overdue1to30": 50.0, "overdue31to60": 70.0,
                           "overdueOver60": 40.0, "accountsOwing": 4, "accountsOverdue": 2, "funds": 50.0}
    # What the newest late invoice of each still lacks is what the ledger says it lacks.
    with app.state.session_factory() as session:
        assert outstanding_cents(session, session.get(Invoice, acme_invoice)) == 7_000
        assert outstanding_cents(session, session.get(Invoice, bolt_invoice)) == 9_000
    listed = {row["name"]: row for row in admin.get("/api/console/accounts").json()["items"]}
    assert {name: row["overdue"] for name, row in listed.items()} == {
        "Acme Leads": 70.0, "Bolt Media": 90.0, "Cool Air": 0.0, "Dune Leads": 0.0, "Echo Calls": 0.0,
        "Fern Home": 0.0}


def test_before_any_invoice_everything_owed_is_current(admin, app):
    add_entry(app, make_account(app), EntryKind.CHARGE, -1_234)
    add_entry(app, make_account(app), EntryKind.CHARGE, -1)
    receivables = admin.get("/api/console/money").json()["receivables"]
    assert (receivables["owed"], receivables["current"], receivables["accountsOwing"]) == (12.35, 12.35, 2)
    assert receivables["overdue1to30"] == receivables["overdue31to60"] == receivables["overdueOver60"] == 0


def test_cash_per_day_is_payments_less_refunds_and_disputes(admin, app):
    account = make_account(app)
    two_days_ago, yesterday = _days_ago(2) + timedelta(hours=9), _days_ago(1) + timedelta(hours=23)
    add_entry(app, account, EntryKind.PAYMENT, 10_000, at=two_days_ago)
    wire = add_entry(app, account, EntryKind.PAYMENT, 2_550, at=two_days_ago)
    refund = add_entry(app, account, EntryKind.REFUND, -1_000, at=two_days_ago)
    add_entry(app, account, EntryKind.PAYMENT_FAILED, 0, at=two_days_ago)
    add_entry(app, account, EntryKind.CHARGE, -3_000, at=two_days_ago)  # revenue, not cash
    add_entry(app, account, EntryKind.ADJUSTMENT, 700, at=two_days_ago)  # revenue, not cash
    add_entry(app, account, EntryKind.DISPUTE, -2_000, at=yesterday)
    add_entry(app, account, EntryKind.PAYMENT, 9_900, at=_days_ago(40))  # before the range
    add_entry(app, account, EntryKind.PAYMENT, 500)
    # The wire was entered by mistake; the refund was not paid after all.
    for entry_id in (wire, refund):
        assert admin.post(f"/api/console/entries/{entry_id}/reverse", json={"note": "Entered twice."}).status_code \
            == 201

    cash = admin.get("/api/console/money").json()["cash"]
    per_day = {row["day"]: (row["received"], row["paidOut"], row["net"]) for row in cash["perDay"]}
    assert len(per_day) == 30 and set(per_day.values()) - {(0, 0, 0)} == {
        (125.5, 10.0, 115.5), (0, 20.0, -20.0), (15.0, 25.5, -10.5)}
    assert per_day[two_days_ago.date().isoformat()] == (125.5, 10.0, 115.5)
    assert per_day[yesterday.date().isoformat()] == (0, 20.0, -20.0)
    assert per_day[utcnow().date().isoformat()] == (15.0, 25.5, -10.5)
    assert (cash["received"], cash["paidOut"], cash["net"]) == (140.5, 55.5, 85.0)
    day = yesterday.date().isoformat()
    narrow = admin.get("/api/console/money", params={"from": day, "to": day}).json()
    assert narrow["range"] == {"from": day, "to": day}
    assert narrow["cash"]["perDay"] == [{"day": day, "received": 0, "paidOut": 20.0, "net": -20.0}]


def test_the_last_finished_check_is_shown(admin, app):
    assert admin.get("/api/console/money").json()["lastCheck"] is None
    started = utcnow() - timedelta(hours=2)
    with app.state.session_factory() as session:
        session.add_all([
            LedgerCheck(started_at=started, finished_at=started + timedelta(seconds=3), ok=True, accounts=4,
                        entries=90, problems=[]),
            LedgerCheck(started_at=started + timedelta(hours=1), finished_at=started + timedelta(hours=1, seconds=4),
                        ok=False, accounts=5, entries=100, problems=[f"problem {n}" for n in range(25)]),
            LedgerCheck(started_at=utcnow(), ok=False, accounts=0, entries=0, problems=[]),  # still running
        ])
        session.commit()
    check = admin.get("/api/console/money").json()["lastCheck"]
    assert (check["ok"], check["accounts"], check["entries"], check["problemCount"]) == (False, 5, 100, 25)
    assert check["problems"] == [f"problem {n}" for n in range(20)]
    assert check["finishedAt"].endswith("Z") and check["startedAt"] < check["finishedAt"]


def test_every_account_with_its_terms_balance_and_hold(admin, analyst_browser, app, make_buyer):  # noqa: F811
    buyer_id = make_buyer("Acme Leads")
    acme = make_account(app, AccountKind.BUYER, owner_id=buyer_id, name="Acme (old name)", terms=Terms.CREDIT,
                        credit_limit_cents=50_000, net_days=30)
    add_entry(app, acme, EntryKind.CHARGE, -12_550)
    held = make_account(app, AccountKind.PROVIDER, name="Cool Air", hold_reason=HoldReason.FUNDS,
                        held_since=utcnow())
    add_entry(app, held, EntryKind.PAYMENT, 500)
    make_account(app, AccountKind.BUYER, name="Zed Leads", terms=Terms.CREDIT)

    items = admin.get("/api/console/accounts").json()["items"]
    assert [row["name"] for row in items] == ["Acme Leads", "Cool Air", "Zed Leads"], "owners' current names"
    first = items[0]
    assert first == {"id": acme, "kind": "buyer", "ownerId": buyer_id, "name": "Acme Leads", "terms": "credit",
                     "creditLimit": 500.0, "netDays": 30, "balance": -125.5, "available": 374.5, "overdue": 0.0,
                     "holdReason": None, "heldSince": None}
    assert (items[1]["balance"], items[1]["available"], items[1]["holdReason"]) == (5.0, 5.0, "funds")
    assert items[1]["heldSince"].endswith("Z")
    assert items[2]["available"] is None, "credit terms without a limit"

    def names(**query) -> list[str]:
        answer = admin.get("/api/console/accounts", params=query)
        assert answer.status_code == 200, answer.text
        return [row["name"] for row in answer.json()["items"]]

    assert names(kind="provider") == ["Cool Air"]
    assert names(status="held") == ["Cool Air"]
    assert names(status="owing") == ["Acme Leads"]
    assert names(q="ZED") == ["Zed Leads"]
    assert names(q="acme l") == ["Acme Leads"] and names(q="old name") == [], "found by the name shown"
    assert names(q="%") == [], "a wildcard is a character to find"
    paged, cursor = [], None
    while True:
        page = admin.get("/api/console/accounts", params={"limit": 1, **({"cursor": cursor} if cursor else {})}).json()
        paged += [row["name"] for row in page["items"]]
        if not (cursor := page["nextCursor"]):
            break
    assert paged == ["Acme Leads", "Cool Air", "Zed Leads"]
    # Analysts read the money as admins do.
    assert analyst_browser.get("/api/console/accounts").json()["items"] == items
    assert analyst_browser.get(f"/api/console/accounts/{acme}").json()["account"] == first
    assert analyst_browser.get("/api/console/money").status_code == 200


def test_an_accounts_entries_newest_first_with_the_balance_after_each(admin, app):
    lead = store_lead(app)
    account = make_account(app, name="Acme Leads")
    ids = [add_entry(app, account, EntryKind.PAYMENT, 10_000, at=_days_ago(3)),
           add_entry(app, account, EntryKind.CHARGE, -3_000, at=_days_ago(2), lead_id=lead.id),
           add_entry(app, account, EntryKind.PAYMENT_FAILED, 0, at=_days_ago(1))]
    answer = admin.post(f"/api/console/entries/{ids[1]}/reverse", json={"note": "Sold twice."})
    assert answer.status_code == 201, answer.text
    reversal = answer.json()["entry"]["id"]

    body = admin.get(f"/api/console/accounts/{account}").json()
    assert body["account"]["balance"] == 100.0 and body["nextCursor"] is None
    entries = body["entries"]
    assert [(e["id"], e["kind"], e["amount"], e["balanceAfter"]) for e in entries] == [
        (reversal, "reversal", 30.0, 100.0), (ids[2], "payment_failed", 0, 70.0), (ids[1], "charge", -30.0, 70.0),
        (ids[0], "payment", 100.0, 100.0)]
    charge = entries[2]
    assert (charge["reversedBy"], charge["reversible"], charge["leadId"]) == (reversal, False, lead.id)
    assert charge["leadReference"] == f"{lead.reference[:4]}-{lead.reference[4:]}"
    assert (entries[0]["reverses"], entries[0]["reversible"], entries[0]["note"]) == (ids[1], False, "Sold twice.")
    assert entries[0]["leadReference"] == charge["leadReference"]
    assert entries[1]["reversible"] is False, "a failed payment moved nothing"
    assert entries[3]["reversible"] is True and entries[3]["reversedBy"] is None

    first = admin.get(f"/api/console/accounts/{account}", params={"limit": 2}).json()
    assert [e["id"] for e in first["entries"]] == [reversal, ids[2]]
    rest = admin.get(f"/api/console/accounts/{account}", params={"limit": 2, "cursor": first["nextCursor"]}).json()
    assert [(e["id"], e["balanceAfter"]) for e in rest["entries"]] == [(ids[1], 70.0), (ids[0], 100.0)]
    assert rest["nextCursor"] is None


def test_bad_questions_are_refused_by_name(admin, app):
    account = make_account(app)
    assert admin.get("/api/console/accounts/no-such-account").status_code == 404
    assert admin.get("/api/console/accounts/" + "x" * 37).status_code == 422
    for path, query, field in (("/api/console/accounts", {"kind": "seller"}, "kind"),
                               ("/api/console/accounts", {"status": "rich"}, "status"),
                               ("/api/console/accounts", {"cursor": "bm90LWpzb24"}, "cursor"),
                               ("/api/console/accounts", {"limit": 201}, "limit"),
                               ("/api/console/accounts", {"q": "x" * 201}, "q"),
                               (f"/api/console/accounts/{account}", {"cursor": "12x"}, "cursor"),
                               ("/api/console/money", {"from": "2026-12-01", "to": "2026-11-01"}, "from"),
                               ("/api/console/money", {"from": "2024-01-01", "to": "2026-11-01"}, "from"),
                               ("/api/console/money", {"to": "yesterday"}, "to")):
        answer = admin.get(path, params=query)
        assert answer.status_code == 422, (path, query, answer.text)
        assert field in answer.json()["fields"], (path, query, answer.json())


def test_signed_out_there_is_no_money_to_read(client, app):
    account = make_account(app)
    for path in ("/api/console/money", "/api/console/accounts", f"/api/console/accounts/{account}"):
        assert client.get(path).status_code == 401
    assert account_of(app, AccountKind.BUYER, "nobody") is None
