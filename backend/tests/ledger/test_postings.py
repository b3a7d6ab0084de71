"""Posting: an entry moves its account's balance once, whatever is retried."""

from __future__ import annotations

from sqlalchemy import func, select

from servicematch.ledger.models import (
    AccountKind,
    Cause,
    EntryKind,
    LedgerAccount,
    LedgerEntry,
    Terms,
)
from servicematch.ledger.postings import account_for, available_cents, can_cover, post


def test_a_posting_moves_the_balance_once_however_often_it_is_retried(session_factory):
    with session_factory() as session:
        account = account_for(session, AccountKind.BUYER, "buyer-1", name="Leads Direct")
        for _ in range(3):
            post(session, account, kind=EntryKind.PAYMENT, amount_cents=5_000, cause=Cause.PAYMENT, cause_id="p1")
        post(session, account, kind=EntryKind.CHARGE, amount_cents=-3_000, cause=Cause.SALE, cause_id="s1")
        session.commit()
        assert session.get(LedgerAccount, account.id).balance_cents == 2_000
        assert session.scalar(select(func.count()).select_from(LedgerEntry)) == 2
        assert account_for(session, AccountKind.BUYER, "buyer-1").id == account.id


def test_prepaid_covers_its_balance_and_credit_its_limit_or_everything(session_factory):
    with session_factory() as session:
        account = account_for(session, AccountKind.PROVIDER, "provider-1")
        assert account.terms == Terms.PREPAID and not can_cover(account, 1) and can_cover(account, 0)
        post(session, account, kind=EntryKind.PAYMENT, amount_cents=1_000, cause=Cause.PAYMENT, cause_id="p")
        session.commit()
        assert can_cover(account, 1_000) and not can_cover(account, 1_001)
        account.terms, account.credit_limit_cents = Terms.CREDIT, 500
        assert available_cents(account) == 1_500 and not can_cover(account, 1_501)
        account.credit_limit_cents = None
        assert available_cents(account) is None and can_cover(account, 10**9)
        assert not can_cover(None, 1)
