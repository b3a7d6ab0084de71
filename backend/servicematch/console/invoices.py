"""Invoices in the console: every account's invoices by month and status, what is overdue and by whom
(days past due), one invoice with its lines and PDF, and an admin's mark-paid, which records the
money received by wire, cheque or otherwise against the invoice (a payment in the ledger) and is
on the audit log in the same transaction. docs/money.md, "Invoices"."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select

from servicematch.console import audit
from servicematch.console.auth import AdminOnly, AnyOperator, Db
from servicematch.deps import SettingsDep
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, ErrorBody, NotFound, ServiceMatchError
from servicematch.intake.schemas import RequiredLongText
from servicematch.kernel.clock import utcnow
from servicematch.ledger.invoice_payments import pay_invoice
from servicematch.ledger.invoice_pdf import invoice_pdf
from servicematch.ledger.invoice_views import (
    PDF_ANSWER,
    InvoiceDetail,
    InvoicePdf,
    InvoiceSummary,
    decode_number_cursor,
    detail_of,
    dollars,
    iso,
    pdf_answer,
    summary_fields,
)
from servicematch.ledger.invoices import MonthError, month_bounds
from servicematch.ledger.models import Invoice, InvoiceStatus, LedgerAccount, PaymentMethod

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)
# The audit log's name of an admin's mark-paid (console/audit.py's Action names the others).
INVOICE_MARK_PAID = "invoice.mark_paid"
PAGE = 100
NO_INVOICE = {404: {"model": ErrorBody, "description": "No invoice with this id"}}
InvoiceId = Annotated[str, Path(max_length=64, description="The invoice's id, as the list gives it")]


class ConsoleInvoice(InvoiceSummary):
    model_config = ConfigDict(extra="forbid")

    accountId: str
    accountKind: Literal["buyer", "provider"]
    ownerId: str
    accountName: str
    emailedAt: str | None


class ConsoleInvoicePage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    items: list[ConsoleInvoice]
    nextCursor: str | None


class MarkPaid(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: RequiredLongText
    method: Literal["wire", "cheque", "other"] = "wire"


class MarkedPaid(BaseModel):
    model_config = ConfigDict(extra="forbid")

    invoice: ConsoleInvoice
    # The payment recorded for it, in dollars; 0 when payments already covered it.
    recorded: float
    paymentId: str | None


def _rows(db, invoices: list[Invoice], now) -> list[ConsoleInvoice]:
    accounts = {account.id: account for account in db.scalars(select(LedgerAccount).where(
        LedgerAccount.id.in_({invoice.account_id for invoice in invoices})))} if invoices else {}
    return [ConsoleInvoice(**summary_fields(invoice, now), accountId=invoice.account_id,
                           accountKind=accounts[invoice.account_id].kind, ownerId=accounts[invoice.account_id].owner_id,
                           accountName=accounts[invoice.account_id].name, emailedAt=iso(invoice.emailed_at))
            for invoice in invoices]


@router.get("/invoices", response_model=ConsoleInvoicePage,
            summary="Invoices, newest first (of one month or status); overdue=true: the open ones past their due "
                    "date, longest overdue first")
def list_invoices(caller: AnyOperator, db: Db,
                  status: str = Query(default="", json_schema_extra={"enum": ["", *(InvoiceStatus.OPEN,
                                                                                   InvoiceStatus.PAID)]}),
                  overdue: bool = Query(default=False, description="Only open invoices past their due date"),
                  month: str = Query(default="", max_length=7, description="YYYY-MM, or empty for every month"),
                  cursor: str | None = Query(default=None, max_length=20, description="The last page's nextCursor")
                  ) -> ConsoleInvoicePage:
    if status not in ("", InvoiceStatus.OPEN, InvoiceStatus.PAID):
        raise ServiceMatchError("Unknown status.", fields={"status": "open, paid or empty"}, status_code=422)
    now, position = utcnow(), decode_number_cursor(cursor)
    query = select(Invoice)
    if month:
        try:
            month_bounds(month)
        except MonthError as exc:
            raise ServiceMatchError(str(exc), fields={"month": "YYYY-MM"}, status_code=422) from exc
        query = query.where(Invoice.month == month)
    if overdue:
        query = query.where(Invoice.status == InvoiceStatus.OPEN, Invoice.due_at < now)
    elif status:
        query = query.where(Invoice.status == status)
    # Overdue ones oldest first (the longest overdue is chased first); the rest newest first.
    if position is not None:
        query = query.where(Invoice.number > position if overdue else Invoice.number < position)
    order = Invoice.number.asc() if overdue else Invoice.number.desc()
    rows = list(db.scalars(query.order_by(order).limit(PAGE + 1)))
    page = rows[:PAGE]
    return ConsoleInvoicePage(items=_rows(db, page, now),
                              nextCursor=str(page[-1].number) if len(rows) > PAGE else None)


def _invoice(db, invoice_id: str, *, lock: bool = False) -> Invoice:
    invoice = db.get(Invoice, invoice_id[:36], with_for_update=lock)
    if invoice is None:
        raise NotFound("No invoice with this id.")
    return invoice


@router.get("/invoices/{invoice_id}.pdf", response_class=InvoicePdf, responses={**PDF_ANSWER, **NO_INVOICE},
            summary="One invoice as a PDF, as its account was sent it")
def read_invoice_pdf(invoice_id: InvoiceId, caller: AnyOperator, db: Db, settings: SettingsDep) -> InvoicePdf:
    invoice = _invoice(db, invoice_id)
    return pdf_answer(invoice_pdf(db, invoice, settings.brand_name), invoice.number)


@router.get("/invoices/{invoice_id}", response_model=InvoiceDetail, responses=NO_INVOICE,
            summary="One invoice: totals, amount due, what is still due now, and every line")
def read_invoice(invoice_id: InvoiceId, caller: AnyOperator, db: Db) -> InvoiceDetail:
    return detail_of(db, _invoice(db, invoice_id), utcnow())


@router.post("/invoices/{invoice_id}/mark-paid", response_model=MarkedPaid,
             responses={**NO_INVOICE, 409: {"model": ErrorBody, "description": "The invoice is paid already"},
                        422: {"model": ErrorBody, "description": "No note"}},
             summary="Record money received by wire, cheque or otherwise for an open invoice: a payment of what it "
                     "still lacks, credited to the account; the invoice is then paid (admins)")
def mark_paid(invoice_id: InvoiceId, body: MarkPaid, caller: AdminOnly, db: Db, settings: SettingsDep) -> MarkedPaid:
    if not body.note.strip():
        raise ServiceMatchError("Say what was received: a wire's reference, a cheque's number.",
                                fields={"note": "required"}, status_code=422)
    invoice = _invoice(db, invoice_id, lock=True)  # two admins at once record one payment
    if invoice.status == InvoiceStatus.PAID:
        raise ServiceMatchError("This invoice is paid already.", status_code=409)
    method = {"wire": PaymentMethod.WIRE, "cheque": PaymentMethod.CHEQUE}.get(body.method, PaymentMethod.OTHER)
    payment = pay_invoice(db, invoice, method=method, note=body.note.strip(), by=caller.operator.email, now=utcnow(),
                          grace_days=settings.overdue_grace_days)
    recorded = payment.amount_cents if payment is not None else 0
    audit.record(db, action=INVOICE_MARK_PAID, operator=caller.operator, ip=caller.ip, target=invoice.id,
                 detail={"number": invoice.number, "accountId": invoice.account_id, "amountCents": recorded,
                         "method": method, "paymentId": payment.id if payment else None, "note": body.note[:500]})
    db.commit()
    return MarkedPaid(invoice=_rows(db, [invoice], utcnow())[0], recorded=dollars(recorded),
                      paymentId=payment.id if payment else None)
