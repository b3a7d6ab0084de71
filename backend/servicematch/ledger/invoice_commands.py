"""`servicematch invoices issue --month YYYY-MM` and `servicematch invoices list`.

Issuing is what the worker's monthly chore does on the 1st, by hand: a month already issued issues
nothing new, and an account missing its invoice gets it. Mailing the invoices needs to know each
account's people, which this room does not: the CLI (cli.py) hands `invoice_commands` the function
that issues and mails (console/invoice_mail.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import click
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.db.session import make_engine, make_session_factory
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.ledger.invoice_pdf import money
from servicematch.ledger.invoice_settling import invoice_label
from servicematch.ledger.invoices import IssuedMonth, MonthError, month_bounds
from servicematch.ledger.models import Invoice, InvoiceStatus, LedgerAccount
from servicematch.settings import Settings, get_settings
from servicematch.terminal import SafeClickException, safe_text

# (session factory, settings, month, now, mail?) -> (what was issued, how many were mailed)
IssueAndMail = Callable[..., tuple[IssuedMonth, int]]
LIST_LIMIT = 500


def _session_factory() -> sessionmaker[Session]:
    return make_session_factory(make_engine(get_settings().database_url))


def invoice_commands(issue_and_mail: IssueAndMail) -> click.Group:
    """The `invoices` group, issuing (and mailing) with `issue_and_mail`."""

    @click.group()
    def invoices() -> None:
        """Monthly invoices: issue a month by hand, list what was issued."""

    @invoices.command("issue")
    @click.option("--month", required=True, help="The month to invoice, YYYY-MM (UTC); it must be over.")
    @click.option("--mail/--no-mail", default=True, show_default=True,
                  help="E-mail each new invoice, its PDF attached, to its account's people.")
    def issue(month: str, mail: bool) -> None:
        """Issue the month's invoice to every account with activity in it or a balance, unless it has one."""
        settings: Settings = get_settings()
        try:
            done, mailed = issue_and_mail(_session_factory(), settings, month.strip(), utcnow(), mail=mail)
        except MonthError as exc:
            raise SafeClickException(str(exc)) from exc
        click.echo(f"{done.month}: {len(done.issued)} invoices issued, {done.already} issued before"
                   + (f", {mailed} mailed" if mail else ""))

    @invoices.command("list")
    @click.option("--month", default="", help="Only this month's (YYYY-MM).")
    @click.option("--status", type=click.Choice(["open", "paid", "overdue"]), help="Only open, paid or overdue ones.")
    def list_invoices(month: str, status: str | None) -> None:
        """One line per invoice, newest first: number, month, account, status, amount due, due date."""
        with _session_factory()() as session:
            rows = _listed(session, month.strip(), status, utcnow())
        if not rows:
            click.echo("no invoices")
        for invoice, account in rows:
            late = " overdue" if invoice.status == InvoiceStatus.OPEN and as_utc(invoice.due_at) < utcnow() else ""
            click.echo(safe_text(f"{invoice_label(invoice.number)}  {invoice.month}  {account.kind}:{account.name}  "
                                 f"{invoice.status}{late}  due {money(invoice.due_cents)} by "
                                 f"{as_utc(invoice.due_at):%Y-%m-%d}  id {invoice.id}"))

    return invoices


def _listed(session: Session, month: str, status: str | None, now: datetime) -> list[tuple[Invoice, LedgerAccount]]:
    query = select(Invoice, LedgerAccount).join(LedgerAccount, LedgerAccount.id == Invoice.account_id)
    if month:
        try:
            month_bounds(month)
        except MonthError as exc:
            raise SafeClickException(str(exc)) from exc
        query = query.where(Invoice.month == month)
    if status == "overdue":
        query = query.where(Invoice.status == InvoiceStatus.OPEN, Invoice.due_at < now)
    elif status:
        query = query.where(Invoice.status == status)
    return [(invoice, account) for invoice, account in
            session.execute(query.order_by(Invoice.number.desc()).limit(LIST_LIMIT)).all()]
