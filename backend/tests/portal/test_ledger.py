"""The provider's ledger in the portal: the balance, a month's statement (opening, charges,
credits, closing), the months with entries, and the statement as CSV without personal data."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from money_support import accept_offer, store_lead
from sqlalchemy import select

from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import LedgerEntry


def _this_month() -> datetime:
    now = utcnow()
    return datetime(now.year, now.month, 1, tzinfo=UTC)


def _month(moment: datetime) -> str:
    return f"{moment:%Y-%m}"


def _credit(app, provider_client, offer_id: str) -> None:
    """A credit approved at once: the same consumer bought twice (portal/credits.py)."""
    answer = provider_client.send("POST", f"{provider_client.me}/offers/{offer_id}/credit", {"reason": "duplicate"})
    assert answer.json()["status"] == "approved", answer.text


def _two_months(app, pro) -> tuple[datetime, datetime]:
    """Last month: one lead at $45.00. This month: the same consumer's lead again at $52.00 (credited),
    and another consumer's at $30.00."""
    this = _this_month()
    last = this - timedelta(days=3)
    accept_offer(app, lead_id=store_lead(app, phone="5125550111").id, provider_id=pro.provider_id,
                 price_cents=4500, decided_at=last)
    twin = accept_offer(app, lead_id=store_lead(app, phone="5125550111").id, provider_id=pro.provider_id,
                        price_cents=5200, decided_at=utcnow() - timedelta(seconds=2))
    accept_offer(app, lead_id=store_lead(app, phone="5125550122", email="b@example.com").id,
                 provider_id=pro.provider_id, price_cents=3000, decided_at=utcnow() - timedelta(seconds=1))
    _credit(app, pro, twin)
    return last, this


def test_the_statement_opens_with_last_months_balance_and_adds_the_months_entries(app, provider):
    pro = provider()
    last, this = _two_months(app, pro)

    now = pro.get(f"{pro.me}/ledger").json()
    assert now["month"] == _month(this) and now["months"] == [_month(this), _month(last)]
    assert (now["openingBalanceCents"], now["chargesCents"], now["creditsCents"], now["closingBalanceCents"],
            now["balanceCents"]) == (4500, 8200, -5200, 7500, 7500)
    assert [(e["kind"], e["amountCents"]) for e in now["entries"]] == [("charge", 5200), ("charge", 3000),
                                                                        ("credit", -5200)]
    assert now["entries"][2]["description"] == "Credit: duplicate" and now["entries"][2]["offerId"]

    before = pro.http.get(f"/api/pro{pro.me}/ledger", params={"month": _month(last)}).json()
    assert (before["openingBalanceCents"], before["chargesCents"], before["creditsCents"],
            before["closingBalanceCents"], before["balanceCents"]) == (0, 4500, 0, 4500, 7500)
    assert before["closingBalanceCents"] == now["openingBalanceCents"]

    empty = pro.http.get(f"/api/pro{pro.me}/ledger", params={"month": "2001-01"}).json()
    assert (empty["entries"], empty["openingBalanceCents"], empty["closingBalanceCents"]) == ([], 0, 0)


def test_the_csv_statement_runs_the_balance_and_holds_no_personal_data(app, provider):
    pro = provider()
    _last, this = _two_months(app, pro)
    with app.state.session_factory() as session:  # a description a spreadsheet would take for a formula
        entry = session.scalar(select(LedgerEntry).where(LedgerEntry.amount_cents == -3000))
        entry.description = "=HYPERLINK(\"http://evil.example\")"
        session.commit()

    answer = pro.get(f"{pro.me}/ledger.csv")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"] == f'attachment; filename="servicematch-statement-{_month(this)}.csv"'
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert rows == [
        ["date", "description", "kind", "amount", "running balance"],
        [f"{this:%Y-%m-%d}", "Opening balance", "", "", "45.00"],
        [f"{utcnow():%Y-%m-%d}", "HVAC lead, Austin TX 78701", "charge", "52.00", "97.00"],
        [f"{utcnow():%Y-%m-%d}", "'=HYPERLINK(\"http://evil.example\")", "charge", "30.00", "127.00"],
        [f"{utcnow():%Y-%m-%d}", "Credit: duplicate", "credit", "-52.00", "75.00"],
    ]
    for personal in ("Maria", "Garcia", "maria.garcia", "5125550111", "Congress"):
        assert personal not in answer.text


def test_a_month_is_given_as_yyyy_mm(provider):
    pro = provider()
    for bad in ("2026-13", "2026-1", "26-11", "1999-12", "2026-11-01", "november"):
        for path in ("/ledger", "/ledger.csv"):
            answer = pro.http.get(f"/api/pro{pro.me}{path}", params={"month": bad})
            assert answer.status_code == 422, (bad, path)
            assert "month" in answer.json()["fields"], (bad, path)



@pytest.mark.parametrize("path", ["/ledger", "/ledger.csv"])
@pytest.mark.parametrize("month", ["9999-12", "9999-11", "3000-01"])
def test_a_month_far_ahead_is_a_422_naming_it_and_the_ledger_still_answers(provider, path, month):
    # 9999-12's statement would end in the year 10000, which no date holds: that was a 500.
    pro = provider()
    answer = pro.http.get(f"/api/pro{pro.me}{path}", params={"month": month})
    assert answer.status_code == 422, answer.text
    assert list(answer.json()["fields"]) == ["month"]
    assert "2000-01" in answer.json()["fields"]["month"]
    assert pro.get(f"{pro.me}{path}").status_code == 200


def test_months_run_from_2000_to_the_end_of_next_year(provider):
    pro = provider()
    last = f"{utcnow().year + 1}-12"
    for path in ("/ledger", "/ledger.csv"):
        for month in ("2000-01", last):
            answer = pro.http.get(f"/api/pro{pro.me}{path}", params={"month": month})
            assert answer.status_code == 200, (month, answer.text)
        after = pro.http.get(f"/api/pro{pro.me}{path}", params={"month": f"{utcnow().year + 2}-01"})
        assert after.status_code == 422 and after.json()["fields"]["month"].endswith(f"{last}.")


def test_another_providers_ledger_answers_404_with_no_body(app, provider):
    pro, other = provider(), provider()
    accept_offer(app, lead_id=store_lead(app).id, provider_id=other.provider_id)
    for path in ("/ledger", "/ledger.csv"):
        answer = pro.get(f"/providers/{other.provider_id}{path}")
        assert (answer.status_code, answer.content) == (404, b"")
    assert pro.get(f"{pro.me}/ledger").json()["balanceCents"] == 0


def test_the_ledger_needs_a_session(app, provider):
    pro = provider()
    pro.http.cookies.clear()
    assert pro.get(f"{pro.me}/ledger").status_code == 401
    assert pro.get(f"{pro.me}/ledger.csv").status_code == 401
