"""The buyer's standing in its portal and API: how it pays, its balance, what it may still spend, and
while it is not receiving leads, why and what to do; only its own, never another buyer's."""

from __future__ import annotations

from fastapi.testclient import TestClient

from servicematch.kernel.clock import utcnow
from servicematch.ledger import holds
from servicematch.ledger.models import AccountKind, Cause, EntryKind, HoldReason, Terms
from servicematch.ledger.postings import accounts_of, post
from servicematch.ledger.terms import TermsChange, change_terms

STANDING = "/api/buyer/account/standing"


def set_money(app, buyer_id: str, *, change: TermsChange | None = None, funds: int = 0, hold: str | None = None):
    with app.state.session_factory() as session:
        account = change_terms(session, AccountKind.BUYER, buyer_id, change or TermsChange())
        if funds:
            post(session, account, kind=EntryKind.PAYMENT, amount_cents=funds, cause=Cause.PAYMENT,
                 cause_id=f"pay-{buyer_id}")
        if hold:
            holds.hold(session, account, hold, utcnow())
        session.commit()


def test_a_new_prepaid_buyer_sees_its_terms_and_empty_balance(app, make_buyer, buyer_browser, prepaid_by_default):
    buyer_id = make_buyer("Leads Direct LLC")
    answer = buyer_browser(buyer_id).get(STANDING)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"terms": "prepaid", "termsText": "Prepaid", "creditLimit": None, "netDays": 15,
                             "balance": 0.0, "available": 0.0, "receivingLeads": True, "hold": None,
                             "heldSince": None, "why": None, "whatToDo": None}


def test_a_held_buyer_is_told_why_and_what_to_do_in_the_portal_and_its_api(app, make_buyer, buyer_browser,
                                                                           key_client):
    buyer_id = make_buyer("Leads Direct LLC")
    set_money(app, buyer_id, change=TermsChange(terms=Terms.CREDIT, credit_limit_cents=10_000), funds=2500,
              hold=HoldReason.FUNDS)
    for caller in (buyer_browser(buyer_id), key_client(buyer_id)):
        prefix = "/api/buyer/v1" if "authorization" in caller.headers else "/api/buyer"
        shown = caller.get(f"{prefix}/account/standing").json()
        assert (shown["terms"], shown["creditLimit"], shown["balance"], shown["available"]) == (
            "credit", 100.0, 25.0, 125.0)
        assert shown["termsText"] == "Credit, limit $100.00, invoices due in 15 days"
        assert (shown["receivingLeads"], shown["hold"]) == (False, "funds")
        assert "credit limit is used up" in shown["why"] and shown["whatToDo"].startswith("Add funds")


def test_a_buyer_sees_only_its_own_standing(app, make_buyer, buyer_browser):
    mine, theirs = make_buyer("Mine LLC"), make_buyer("Theirs LLC")
    set_money(app, theirs, change=TermsChange(terms=Terms.CREDIT), funds=99_900, hold=HoldReason.OVERDUE)
    shown = buyer_browser(mine).get(STANDING).json()
    assert shown["balance"] == 0.0 and shown["hold"] is None
    with app.state.session_factory() as session:
        assert accounts_of(session, AccountKind.BUYER, [theirs])[theirs].balance_cents == 99_900
    assert "999" not in buyer_browser(mine).get(STANDING).text


def test_the_standing_needs_a_signed_in_person_or_a_key(app):
    assert TestClient(app).get(STANDING).status_code == 401
    assert TestClient(app).get("/api/buyer/v1/account/standing").status_code == 401
