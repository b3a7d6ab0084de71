"""`servicematch payments record|list`: money received by wire, cheque or otherwise, recorded by hand
(as the console's "Record a payment" does), and an account's payments (docs/money.md)."""

from __future__ import annotations

import click
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.access.models import add_audit_entry
from servicematch.console.payments import PAYMENT_RECORD, record
from servicematch.db.session import make_engine, make_session_factory
from servicematch.delivery.models import Provider
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.kernel.csv_text import dollars
from servicematch.ledger import payments as ledger_payments
from servicematch.ledger.funds import account_to_pay, find_account
from servicematch.ledger.models import AccountKind, LedgerAccount, Payment
from servicematch.routing.buyers import find_buyer
from servicematch.settings import get_settings
from servicematch.terminal import SafeClickException, safe_text

ACCOUNT_HELP = "buyer:NAME or provider:NAME (an exact name, any case, or the buyer's or provider's id)."


def _session() -> Session:
    return make_session_factory(make_engine(get_settings().database_url))()


def find_provider(session: Session, name_or_id: str) -> Provider:
    """The provider with this id, or else the one provider with exactly this name (any case)."""
    wanted = name_or_id.strip()
    provider = session.get(Provider, wanted) if 0 < len(wanted) <= 36 else None
    if provider is not None:
        return provider
    found = list(session.scalars(select(Provider).where(func.lower(Provider.name) == wanted.lower())
                                 .order_by(Provider.created_at, Provider.id)))
    if not found:
        raise NotFound(f"No provider is named {wanted!r} or has that id: see `servicematch providers list`.")
    if len(found) > 1:
        raise ServiceMatchError(f"{len(found)} providers are named {wanted!r}: give one's id instead "
                                f"({', '.join(provider.id for provider in found)}).", status_code=409)
    return found[0]


def account_named(session: Session, named: str, *, make: bool = True) -> LedgerAccount | None:
    """The account `buyer:NAME` or `provider:NAME` names; made (on a new account's terms) when its
    owner has none yet and `make`, else None."""
    kind, _, name = named.partition(":")
    if kind not in AccountKind.ALL or not name.strip():
        raise ServiceMatchError(f"--account must be {ACCOUNT_HELP}")
    owner = find_buyer(session, name) if kind == AccountKind.BUYER else find_provider(session, name)
    if make:
        return account_to_pay(session, kind, owner.id, owner.name)
    return find_account(session, kind, owner.id)


@click.group()
def payments() -> None:
    """Payments: money received by wire or cheque, recorded by hand; card payments arrive from Stripe."""


@payments.command("record")
@click.option("--account", "named", required=True, help=ACCOUNT_HELP)
@click.option("--amount", required=True, help="Dollars received, like 1250.00.")
@click.option("--note", required=True, help="What it was: a bank reference, a cheque number, a date.")
@click.option("--method", type=click.Choice(["wire", "cheque", "other"]), default="wire", show_default=True)
def record_payment(named: str, amount: str, note: str, method: str) -> None:
    """Credit an account with money received outside Stripe (on the audit log as done from the CLI)."""
    with _session() as session:
        try:
            account = account_named(session, named)
            cents = ledger_payments.to_cents(amount)
            row = record(session, account, cents=cents, method=method, note=note, by="cli",
                         grace_days=get_settings().overdue_grace_days)
        except ServiceMatchError as exc:
            raise SafeClickException(exc.error) from exc
        add_audit_entry(session, action=PAYMENT_RECORD, actor_id=None, actor_email="cli", ip="",
                        target=account.id, detail={"paymentId": row.id, "kind": account.kind,
                                                   "ownerId": account.owner_id, "amountCents": cents,
                                                   "method": method, "note": note.strip()[:500]})
        session.commit()
        session.refresh(account)
        click.echo(safe_text(f"recorded ${dollars(cents)} by {method} for {account.kind} {account.name} "
                             f"(payment {row.id}); balance ${dollars(account.balance_cents)}"))


@payments.command("list")
@click.option("--account", "named", required=True, help=ACCOUNT_HELP)
def list_payments(named: str) -> None:
    """The account's payments, newest first (the last 50)."""
    with _session() as session:
        try:
            account = account_named(session, named, make=False)
        except ServiceMatchError as exc:
            raise SafeClickException(exc.error) from exc
        if account is None:
            click.echo("no account yet: no payment, charge or credit")
            return
        rows = list(session.scalars(select(Payment).where(Payment.account_id == account.id)
                                    .order_by(Payment.created_at.desc(), Payment.id.desc()).limit(50)))
        click.echo(safe_text(f"{account.kind} {account.name}: balance ${dollars(account.balance_cents)}"))
        for row in rows:
            click.echo(safe_text(f"{row.created_at:%Y-%m-%d %H:%M}  {row.status:<9}  {row.method:<6}  "
                                 f"${dollars(row.amount_cents):>12}  {row.note or row.failure or ''}"))
        if not rows:
            click.echo("no payments yet")
