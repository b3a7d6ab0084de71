"""The provider's standing in its portal: how it pays, its balance, what it may still spend, and while
it is not receiving leads, why and what to do; another provider's answers 404 with no body."""

from __future__ import annotations

from datetime import timedelta

from servicematch.kernel.clock import utcnow
from servicematch.ledger import holds
from servicematch.ledger.models import AccountKind, HoldReason, Invoice, InvoiceStatus, Terms
from servicematch.ledger.terms import TermsChange, change_terms


def test_a_new_provider_sees_its_terms_and_is_receiving_leads(provider, prepaid_by_default):
    pro = provider()
    answer = pro.get(f"{pro.me}/standing")
    assert answer.status_code == 200, answer.text
    shown = answer.json()
    assert (shown["terms"], shown["balance"], shown["available"], shown["receivingLeads"]) == ("prepaid", 0.0, 0.0,
                                                                                              True)


def test_a_provider_paused_for_an_overdue_invoice_is_told_which_one_to_pay(app, provider):
    pro = provider()
    with app.state.session_factory() as session:
        account = change_terms(session, AccountKind.PROVIDER, pro.provider_id, TermsChange(terms=Terms.CREDIT,
                                                                                            net_days=10))
        session.flush()
        due_at = utcnow() - timedelta(days=12)
        session.add(Invoice(number=4242, account_id=account.id, month="2025-01", issued_at=due_at - timedelta(days=10),
                            due_at=due_at, opening_cents=0, charges_cents=-9000, credits_cents=0, payments_cents=0,
                            closing_cents=-9000, due_cents=9000, status=InvoiceStatus.OPEN))
        holds.hold(session, account, HoldReason.OVERDUE, utcnow())
        session.commit()
    shown = pro.get(f"{pro.me}/standing").json()
    assert (shown["receivingLeads"], shown["hold"], shown["termsText"]) == (
        False, "overdue", "Credit, no limit, invoices due in 10 days")
    assert "invoice 4242 is past due" in shown["why"] and shown["whatToDo"].startswith("Pay invoice 4242")


def test_another_providers_standing_is_a_404_with_no_body(provider):
    mine, theirs = provider(), provider()
    answer = mine.get(f"/providers/{theirs.provider_id}/standing")
    assert (answer.status_code, answer.content) == (404, b"")
