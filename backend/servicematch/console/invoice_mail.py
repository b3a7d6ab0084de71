"""Mailing each issued invoice, its PDF attached, to its account's people; and the worker's monthly
chore that issues the month just ended and mails what it issued.

In the console's room because it needs to know who an account's people are (the ledger knows
accounts only by their owner's id): the same people its hold notices go to, a buyer's people who
are not switched off (buyer/hold_notices.py), a provider's portal accounts that are not switched
off, else its contact address (portal/hold_notices.py).

An invoice is claimed for mailing (emailed_at set, with its PDF kept) in one statement before it is
sent, so two workers never mail it twice; when no one could be reached it is let go again and tried
at the next run, for MAIL_WITHIN after it was issued.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta
from email.message import Message
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from servicematch.buyer.hold_notices import buyer_people
from servicematch.catalog.loader import cached_catalog
from servicematch.kernel.chores import HourlyChore
from servicematch.kernel.clock import utcnow
from servicematch.ledger.invoice_pdf import day, invoice_pdf, money, month_name
from servicematch.ledger.invoice_settling import invoice_label
from servicematch.ledger.invoices import IssuedMonth, issue_month, previous_month
from servicematch.ledger.models import AccountKind, Invoice, LedgerAccount
from servicematch.mail.transport import new_message, send_message
from servicematch.outbound.outcome import Outcome
from servicematch.portal.hold_notices import provider_people
from servicematch.settings import Settings

log = logging.getLogger("servicematch.ledger")

MAIL_WITHIN = timedelta(days=7)
# The headers the outer message carries; the text part keeps only its own content headers.
ENVELOPE = ("From", "To", "Subject", "Date", "Message-ID")


def people_of(session: Session, account: LedgerAccount) -> list[str]:
    """The addresses an account's invoices go to, each once: the same people as its hold notices."""
    found = (buyer_people if account.kind == AccountKind.BUYER else provider_people)(session, [account.owner_id])
    return list(dict.fromkeys(found.get(account.owner_id, [])))


def invoice_message(settings: Settings, invoice: Invoice, account: LedgerAccount, pdf: bytes, to: str) -> Message:
    """One person's e-mail: the invoice in a few lines, a link to it in the portal, the PDF attached."""
    brand, label, month = settings.brand_name, invoice_label(invoice.number), month_name(invoice.month)
    portal = "buyer/invoices" if account.kind == AccountKind.BUYER else "pro/money/invoices"
    due = (f"Amount due: {money(invoice.due_cents)}, by {day(invoice.due_at)}." if invoice.due_cents
           else "Nothing is due: thank you.")
    text = (f"Hello,\n\nThe {brand} invoice {label} for {month} is attached as a PDF.\n\n{due}\n"
            f"Closing balance: {money(invoice.closing_cents)} (a negative balance is what is owed).\n\n"
            f"See it, and every invoice, in your portal:\n{settings.site_origin.rstrip('/')}/{portal}/{invoice.id}\n\n"
            f"To pay by card, choose Add funds in the portal; by wire or cheque, quote {label}.\n")
    key = hashlib.sha256(to.lower().encode()).hexdigest()[:12]
    body = new_message(settings=settings, to=to, subject=f"{brand} invoice {label} for {month}", text=text,
                       message_id_key=f"invoice-{invoice.id}-{key}")
    message = MIMEMultipart("mixed", policy=body.policy)
    for name in ENVELOPE:
        message[name] = body[name]
        del body[name]
    del body["MIME-Version"]
    message.attach(body)
    attachment = MIMEApplication(pdf, "pdf", policy=body.policy)
    attachment.add_header("Content-Disposition", "attachment", filename=f"{label}.pdf")
    message.attach(attachment)
    return message


def mail_invoices(session_factory: sessionmaker[Session], settings: Settings, now: datetime | None = None) -> int:
    """Mail every invoice issued within MAIL_WITHIN and not mailed yet; how many went to someone."""
    now = now or utcnow()
    with session_factory() as session:
        waiting = list(session.scalars(select(Invoice.id).where(
            Invoice.emailed_at.is_(None), Invoice.issued_at >= now - MAIL_WITHIN).order_by(Invoice.number)))
    mailed = 0
    for invoice_id in waiting:
        with session_factory() as session:
            mailed += _mail_one(session, settings, invoice_id, now)
    if waiting:
        log.info("invoices mailed: %d of %d waiting", mailed, len(waiting))
    return mailed


def _mail_one(session: Session, settings: Settings, invoice_id: str, now: datetime) -> int:
    invoice = session.get(Invoice, invoice_id)
    account = session.get(LedgerAccount, invoice.account_id)
    people = people_of(session, account)
    if not people:
        return 0
    pdf = invoice_pdf(session, invoice, settings.brand_name)
    claimed = session.execute(update(Invoice).where(Invoice.id == invoice_id, Invoice.emailed_at.is_(None))
                              .values(emailed_at=now, pdf=pdf).execution_options(synchronize_session=False))
    session.commit()
    if claimed.rowcount != 1:
        return 0  # another worker has it
    sent = [send_message(settings=settings, message=invoice_message(settings, invoice, account, pdf, to))
            for to in people]
    if any(result.outcome == Outcome.DELIVERED for result in sent):
        return 1
    session.execute(update(Invoice).where(Invoice.id == invoice_id).values(emailed_at=None)
                    .execution_options(synchronize_session=False))
    session.commit()
    return 0


def issue_and_mail(session_factory: sessionmaker[Session], settings: Settings, month: str,
                   now: datetime | None = None, *, mail: bool = True) -> tuple[IssuedMonth, int]:
    """Issue the month's invoices, then mail what waits: what `servicematch invoices issue` and the
    chore run."""
    now = now or utcnow()
    issued = issue_month(session_factory, cached_catalog(settings.catalog_dir), month, now)
    return issued, mail_invoices(session_factory, settings, now) if mail else 0


class MonthlyInvoices(HourlyChore):
    """The worker's chore: each hour, the month just ended is issued if this process has not done
    it yet (on the 1st, or at the first run after a stop), then what waits is mailed."""

    def __init__(self, *, session_factory: sessionmaker[Session], settings: Settings, clock=utcnow) -> None:
        super().__init__("monthly invoices", self.run)
        self.session_factory, self.settings, self.clock = session_factory, settings, clock
        self.issued_month: str | None = None

    def run(self) -> None:
        now = self.clock()
        month = previous_month(now)
        if month != self.issued_month:
            issue_month(self.session_factory, cached_catalog(self.settings.catalog_dir), month, now)
            self.issued_month = month
        mail_invoices(self.session_factory, self.settings, now)
