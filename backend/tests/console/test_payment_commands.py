"""`servicematch payments record --account buyer:NAME|provider:NAME --amount DOLLARS --note TEXT`:
the named account credited once, on the audit log; a clear refusal for an unknown or ambiguous
name, a bad amount or a blank note, and nothing recorded then. `payments list` shows them."""

from __future__ import annotations

import pytest
from cli_support import shell_cli
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.console.payment_commands import payments
from servicematch.delivery.models import Provider
from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import AccountKind, EntryKind, LedgerAccount, LedgerEntry, Payment
from servicematch.routing.buyers import BuyerTerms, add_buyer


@pytest.fixture
def cli(monkeypatch, settings):
    with shell_cli(monkeypatch, settings, payments) as run:
        yield run


def _buyer(app, name: str) -> str:
    with app.state.session_factory() as session:
        buyer = add_buyer(session, BuyerTerms(name=name, post_url="https://buyer.example/leads", price_cents=3000),
                          allow_private=True)
        session.commit()
        return buyer.id


def _provider(app, name: str) -> str:
    with app.state.session_factory() as session:
        provider = Provider(name=name, contact_email="pro@example.com", services=["hvac"], states=["TX"], zips=[],
                            active=True, created_at=utcnow())
        session.add(provider)
        session.commit()
        return provider.id


def _account(app, kind: str, owner_id: str) -> LedgerAccount | None:
    with app.state.session_factory() as session:
        return session.scalars(select(LedgerAccount).where(LedgerAccount.kind == kind,
                                                           LedgerAccount.owner_id == owner_id)).first()


def test_a_wire_from_a_buyer_named_exactly_is_credited_once_and_audited(app, cli):
    buyer_id = _buyer(app, "Leads Direct LLC")
    result = cli("record", "--account", "buyer:leads direct llc", "--amount", "1250.00",
                 "--note", "Wire ref 8812")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("recorded $1250.00 by wire for buyer Leads Direct LLC (payment ")
    assert result.output.rstrip().endswith("balance $1250.00")
    account = _account(app, AccountKind.BUYER, buyer_id)
    assert account.balance_cents == 125_000
    with app.state.session_factory() as session:
        [entry] = session.scalars(select(LedgerEntry).where(LedgerEntry.account_id == account.id)).all()
        [payment] = session.scalars(select(Payment)).all()
        assert (entry.kind, entry.cause_id, payment.method, payment.recorded_by) == (
            EntryKind.PAYMENT, payment.id, "wire", "cli")
        [audited] = session.scalars(select(AuditEntry).where(AuditEntry.action == "payment.record")).all()
        assert (audited.operator_email, audited.target, audited.detail["amountCents"]) == ("cli", account.id, 125_000)
    listed = cli("list", "--account", f"buyer:{buyer_id}")
    assert listed.exit_code == 0 and "succeeded  wire" in listed.output and "1250.00" in listed.output


def test_a_cheque_from_a_provider_by_id_or_name(app, cli):
    provider_id = _provider(app, "Cool Air LLC")
    assert cli("record", "--account", f"provider:{provider_id}", "--amount", "99.99", "--note", "Cheque 104",
               "--method", "cheque").exit_code == 0
    assert cli("record", "--account", "provider:Cool Air LLC", "--amount", "0.01", "--note", "Rounding").exit_code == 0
    assert _account(app, AccountKind.PROVIDER, provider_id).balance_cents == 10_000


@pytest.mark.parametrize(("account", "amount", "note", "says"), [
    ("buyer:Nobody", "10", "n", "No buyer is named 'Nobody'"),
    ("provider:Nobody", "10", "n", "No provider is named 'Nobody'"),
    ("seller:Twin Leads", "10", "n", "--account must be buyer:NAME or provider:NAME"),
    ("Twin Leads", "10", "n", "--account must be buyer:NAME or provider:NAME"),
    ("buyer:Twin Leads", "10", "n", "2 buyers are named 'Twin Leads': give one's id instead"),
    ("buyer:Solo", "ten", "n", "amount must be a number of dollars"),
    ("buyer:Solo", "0", "n", "amount must be more than 0"),
    ("buyer:Solo", "1.005", "n", "amount must be dollars and cents"),
    ("buyer:Solo", "10", "   ", "Say what was received"),
])
def test_a_bad_account_amount_or_note_is_refused_and_nothing_is_recorded(app, cli, account, amount, note, says):
    _buyer(app, "Twin Leads")
    _buyer(app, "Twin Leads")
    _buyer(app, "Solo")
    result = cli("record", "--account", account, "--amount", amount, "--note", note)
    assert result.exit_code == 1 and says in result.output, result.output
    with app.state.session_factory() as session:
        assert session.scalars(select(Payment)).all() == []
        assert session.scalars(select(LedgerEntry)).all() == []


def test_listing_an_account_that_never_had_money_makes_none(app, cli):
    buyer_id = _buyer(app, "Quiet Buyer")
    with app.state.session_factory() as session:  # the buyer's account, made with it: gone for this test
        session.query(LedgerAccount).delete()
        session.commit()
    result = cli("list", "--account", "buyer:Quiet Buyer")
    assert result.exit_code == 0 and "no account yet" in result.output
    assert _account(app, AccountKind.BUYER, buyer_id) is None
