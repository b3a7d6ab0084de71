"""Invoices as the portals and the console answer them: money in dollars (2 decimals), signed as the
balance moves (a charge is negative, a payment positive), times in ISO 8601 UTC.

An account's own people read their invoices through `own_invoice` and `invoice_page`, which filter
by the account: another account's invoice is None, which the routes answer with a 404.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.errors import NothingHere, ServiceMatchError
from servicematch.kernel.clock import as_utc
from servicematch.ledger.invoice_pdf import invoice_lines, invoice_pdf
from servicematch.ledger.invoice_settling import invoice_label, outstanding_cents
from servicematch.ledger.models import Invoice, InvoiceStatus, LedgerAccount

PAGE = 24
# The lines an invoice's answer carries: a month of more is in full in its PDF.
MOST_LINES = 2_000
BAD_CURSOR = "The cursor is not valid; start again from the first page."
# What a route that answers an invoice's PDF declares (besides its 404).
PDF_ANSWER = {200: {"description": "The invoice as a PDF", "content": {"application/pdf": {
    "schema": {"type": "string", "format": "binary"}}}}}


class InvoicePdf(Response):
    media_type = "application/pdf"


def pdf_answer(content: bytes, number: int) -> InvoicePdf:
    """The PDF as a download, never kept by a browser or a proxy."""
    return InvoicePdf(content=content, headers={
        "Content-Disposition": f'attachment; filename="{invoice_label(number)}.pdf"', "Cache-Control": "no-store"})


class InvoiceLineView(BaseModel):
    model_config = ConfigDict(extra="forbid")

    at: str
    kind: str
    reference: str | None
    description: str
    amount: float


class InvoiceSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    number: int
    label: str
    month: str
    issuedAt: str
    dueAt: str
    status: Literal["open", "paid"]
    openingBalance: float
    charges: float
    credits: float
    payments: float
    closingBalance: float
    amountDue: float
    paidAt: str | None
    overdue: bool
    daysOverdue: int


class InvoiceDetail(InvoiceSummary):
    model_config = ConfigDict(extra="forbid")

    accountName: str
    # What is still to pay for it now (payments since the month are taken off); 0 once paid.
    stillDue: float
    lineCount: int
    lines: list[InvoiceLineView]


class InvoicePage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    items: list[InvoiceSummary]
    nextCursor: str | None


def dollars(cents: int) -> float:
    return round(cents / 100, 2)


def iso(value: datetime | None) -> str | None:
    value = as_utc(value)
    return value.isoformat(timespec="seconds").replace("+00:00", "Z") if value else None


def days_overdue(invoice: Invoice, now: datetime) -> int:
    """Whole days past the due date of an open invoice; 0 when paid or not yet due."""
    if invoice.status != InvoiceStatus.OPEN or as_utc(invoice.due_at) >= now:
        return 0
    return max(1, (now - as_utc(invoice.due_at)).days)


def summary_fields(invoice: Invoice, now: datetime) -> dict:
    late = days_overdue(invoice, now)
    return {"id": invoice.id, "number": invoice.number, "label": invoice_label(invoice.number),
            "month": invoice.month, "issuedAt": iso(invoice.issued_at), "dueAt": iso(invoice.due_at),
            "status": invoice.status, "openingBalance": dollars(invoice.opening_cents),
            "charges": dollars(invoice.charges_cents), "credits": dollars(invoice.credits_cents),
            "payments": dollars(invoice.payments_cents), "closingBalance": dollars(invoice.closing_cents),
            "amountDue": dollars(invoice.due_cents), "paidAt": iso(invoice.paid_at), "overdue": late > 0,
            "daysOverdue": late}


def detail_of(session: Session, invoice: Invoice, now: datetime) -> InvoiceDetail:
    lines = invoice_lines(session, invoice.id)
    account = session.get(LedgerAccount, invoice.account_id)
    return InvoiceDetail(
        **summary_fields(invoice, now), accountName=account.name,
        stillDue=dollars(outstanding_cents(session, invoice)), lineCount=len(lines),
        lines=[InvoiceLineView(at=iso(line.at), kind=line.kind, reference=line.reference,
                               description=line.description, amount=dollars(line.amount_cents))
               for line in lines[:MOST_LINES]])


def own_invoice(session: Session, account_id: str | None, invoice_id: str) -> Invoice | None:
    """The invoice when it is this account's; None for another's, or none."""
    if account_id is None:
        return None
    return session.scalars(select(Invoice).where(Invoice.id == invoice_id[:36],
                                                 Invoice.account_id == account_id)).first()


def owner_account_id(session: Session, kind: str, owner_id: str) -> str | None:
    """The id of a buyer's or provider's account, or None before it has one (then it has no invoices)."""
    account = session.scalars(select(LedgerAccount).where(LedgerAccount.kind == kind,
                                                          LedgerAccount.owner_id == owner_id)).first()
    return account.id if account is not None else None


def own_invoice_pdf(session: Session, account_id: str | None, invoice_id: str, brand_name: str) -> InvoicePdf:
    """One of the account's invoices as a PDF download, for both portals; another's, or none, a 404."""
    invoice = own_invoice(session, account_id, invoice_id)
    if invoice is None:
        raise NothingHere()
    return pdf_answer(invoice_pdf(session, invoice, brand_name), invoice.number)


def own_invoice_detail(session: Session, account_id: str | None, invoice_id: str, now: datetime) -> InvoiceDetail:
    """One of the account's invoices with its lines, for both portals; another's, or none, a 404."""
    invoice = own_invoice(session, account_id, invoice_id)
    if invoice is None:
        raise NothingHere()
    return detail_of(session, invoice, now)


def decode_number_cursor(cursor: str | None) -> int | None:
    if not cursor:
        return None
    if not cursor.isdigit() or len(cursor) > 9:
        raise ServiceMatchError(BAD_CURSOR, fields={"cursor": "invalid"}, status_code=422)
    return int(cursor)


def invoice_page(session: Session, account_id: str | None, cursor: str | None, now: datetime) -> InvoicePage:
    """The account's invoices, newest first (by number), PAGE at a time."""
    before = decode_number_cursor(cursor)
    if account_id is None:
        return InvoicePage(items=[], nextCursor=None)
    query = select(Invoice).where(Invoice.account_id == account_id)
    if before is not None:
        query = query.where(Invoice.number < before)
    rows = list(session.scalars(query.order_by(Invoice.number.desc()).limit(PAGE + 1)))
    page = rows[:PAGE]
    return InvoicePage(items=[InvoiceSummary(**summary_fields(row, now)) for row in page],
                       nextCursor=str(page[-1].number) if len(rows) > PAGE else None)
