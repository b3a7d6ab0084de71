"""Terms: whether an account may take a lead at a price, how operators change terms (checked the
same way from the CLI and the console), and the standing both portals show."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from servicematch.errors import ServiceMatchError
from servicematch.ledger import terms
from servicematch.ledger.models import AccountKind, HoldReason, LedgerAccount, Terms
from servicematch.ledger.terms import (
    UNSET,
    TermsChange,
    can_take,
    change_terms,
    credit_limit_cents,
    describe,
    hold_reason_for,
    standing_of,
)


def account(terms_: str = Terms.PREPAID, *, balance: int = 0, limit: int | None = None,
            hold: str | None = None) -> LedgerAccount:
    return LedgerAccount(kind=AccountKind.BUYER, owner_id="b1", terms=terms_, balance_cents=balance,
                         credit_limit_cents=limit, net_days=15, hold_reason=hold)


@pytest.mark.parametrize("held, price, committed, refusal", [
    (account(balance=5000), 5000, 0, None),
    (account(balance=5000), 5001, 0, "cannot pay: $50.00 available"),
    (account(balance=5000), 3000, 3000, "cannot pay: $20.00 available"),
    (account(balance=-700), 100, 0, "cannot pay: $0.00 available"),
    (account(Terms.CREDIT), 10_000_000, 0, None),
    (account(Terms.CREDIT, balance=-4000, limit=5000), 1000, 0, None),
    (account(Terms.CREDIT, balance=-4000, limit=5000), 1001, 0, "cannot pay: $10.00 available"),
    (account(Terms.CREDIT, balance=2000, limit=0), 2500, 0, "cannot pay: $20.00 available"),
    (account(Terms.CREDIT, balance=1_000_000, hold=HoldReason.OVERDUE), 100, 0, "paused: an invoice is past due"),
    # A funds hold is a notice, not a block: an account that can pay again buys.
    (account(balance=5000, hold=HoldReason.FUNDS), 100, 0, None),
])
def test_an_account_takes_a_lead_only_while_it_can_pay_for_it(held, price, committed, refusal):
    assert can_take(held, price, committed_cents=committed) == refusal


def test_an_owner_without_an_account_is_judged_as_a_new_account(prepaid_by_default, monkeypatch):
    assert can_take(None, 100) == "cannot pay: $0.00 available"
    assert can_take(None, 0) is None
    monkeypatch.setattr(terms, "NEW_ACCOUNT_TERMS", Terms.CREDIT)
    assert can_take(None, 100) is None


def test_a_refusal_says_which_hold_it_brings():
    assert hold_reason_for("cannot pay: $0.00 available") == HoldReason.FUNDS
    assert hold_reason_for(terms.OVERDUE_REFUSAL) == HoldReason.OVERDUE


@pytest.mark.parametrize("typed, cents", [("5000", 500_000), ("5,000.50", 500_050), ("$12.5", 1250), (0, 0),
                                          ("none", None), ("", None), (None, None), (2500.25, 250_025)])
def test_a_credit_limit_is_read_as_dollars_or_none(typed, cents):
    assert credit_limit_cents(typed) == cents


@pytest.mark.parametrize("typed", ["-1", "lots", "nan", "inf", "1000000.01", 10**12])
def test_a_credit_limit_out_of_range_or_not_a_number_is_refused_by_name(typed):
    with pytest.raises(ServiceMatchError) as refused:
        credit_limit_cents(typed)
    assert list(refused.value.fields) == ["credit_limit"]


def owned(app, owner_id: str) -> LedgerAccount | None:
    with app.state.session_factory() as session:
        found = session.scalars(select(LedgerAccount).where(LedgerAccount.owner_id == owner_id)).first()
        if found is not None:
            session.expunge(found)
        return found


def change(app, owner_id: str, change_: TermsChange, name: str = "Leads Direct LLC") -> LedgerAccount:
    with app.state.session_factory() as session:
        changed = change_terms(session, AccountKind.BUYER, owner_id, change_, name=name)
        session.commit()
        session.expunge(changed)
        return changed


def test_a_new_account_is_prepaid_and_empty_and_a_change_lays_only_what_it_gives_over_it(app, prepaid_by_default):
    made = change(app, "buyer-1", TermsChange())
    assert (made.terms, made.balance_cents, made.credit_limit_cents, made.net_days) == (Terms.PREPAID, 0, None, 15)
    assert made.name == "Leads Direct LLC"

    change(app, "buyer-1", TermsChange(terms=Terms.CREDIT, credit_limit_cents=500_000))
    change(app, "buyer-1", TermsChange(net_days=30))
    after = owned(app, "buyer-1")
    assert (after.terms, after.credit_limit_cents, after.net_days) == (Terms.CREDIT, 500_000, 30)

    change(app, "buyer-1", TermsChange(credit_limit_cents=None))  # no limit
    assert owned(app, "buyer-1").credit_limit_cents is None

    # Back to prepaid drops the limit: credit again later states its limit anew.
    change(app, "buyer-1", TermsChange(credit_limit_cents=100_000))
    change(app, "buyer-1", TermsChange(terms=Terms.PREPAID))
    assert (owned(app, "buyer-1").terms, owned(app, "buyer-1").credit_limit_cents) == (Terms.PREPAID, None)


@pytest.mark.parametrize("bad, field", [
    (TermsChange(terms="monthly"), "terms"),
    (TermsChange(net_days=181), "net_days"),
    (TermsChange(net_days=-1), "net_days"),
    (TermsChange(terms=Terms.CREDIT, credit_limit_cents=-5), "credit_limit"),
    # A limit on a prepaid account would mean nothing: refused, not ignored.
    (TermsChange(credit_limit_cents=100_000), "credit_limit"),
    (TermsChange(terms=Terms.PREPAID, credit_limit_cents=100_000), "credit_limit"),
])
def test_a_change_that_makes_no_sense_is_refused_by_field_and_changes_nothing(app, prepaid_by_default, bad, field):
    change(app, "buyer-2", TermsChange(net_days=20))
    with pytest.raises(ServiceMatchError) as refused:
        change(app, "buyer-2", bad)
    assert list(refused.value.fields) == [field]
    kept = owned(app, "buyer-2")
    assert (kept.terms, kept.net_days, kept.credit_limit_cents) == (Terms.PREPAID, 20, None)


def test_a_change_of_nothing_is_empty_and_no_credit_limit_is_a_change():
    assert TermsChange().empty and TermsChange().credit_limit_cents is UNSET
    assert not TermsChange(credit_limit_cents=None).empty
    assert not TermsChange(net_days=30).empty


def test_the_standing_shows_terms_money_and_what_may_still_be_spent(prepaid_by_default):
    prepaid = standing_of(account(balance=1250))
    assert (prepaid.available_cents, describe(prepaid)) == (1250, "Prepaid")
    limited = standing_of(account(Terms.CREDIT, balance=-3000, limit=500_000))
    assert limited.available_cents == 497_000
    assert describe(limited) == "Credit, limit $5,000.00, invoices due in 15 days"
    unlimited = standing_of(account(Terms.CREDIT, balance=-3000))
    assert (unlimited.available_cents, describe(unlimited)) == (None, "Credit, no limit, invoices due in 15 days")
    new = standing_of(None)
    assert (new.terms, new.balance_cents, new.available_cents, new.hold_reason) == (Terms.PREPAID, 0, 0, None)
