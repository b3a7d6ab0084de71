"""Payments in the console: every account's payments, newest first, and an admin recording money
received by wire, cheque or otherwise (credited to the account at once, on the audit log in the
same transaction); docs/console-api.md, docs/money.md.

Any operator reads; only admins record. Card payments come from Stripe (ledger/router_stripe.py).
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from servicematch.console import audit
from servicematch.console.auth import AdminOnly, AnyOperator, Db
from servicematch.console.paging import decode_position, encode_position, iso
from servicematch.console.shapes import Shape
from servicematch.deps import SettingsDep
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, ErrorBody, NotFound
from servicematch.intake.schemas import RequiredLongText
from servicematch.kernel.clock import utcnow
from servicematch.kernel.numbers import Number
from servicematch.ledger import payments
from servicematch.ledger.funds import dollars
from servicematch.ledger.models import LedgerAccount, Payment

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)
# The audit log's name of a recorded payment (console/audit.py's Action names the others).
PAYMENT_RECORD = "payment.record"
PAGE = 100
AccountId = Path(alias="accountId", max_length=36)


class PaymentReceived(BaseModel):
    """Money received outside Stripe: dollars and cents, how, and what it was (a reference, a date)."""

    model_config = ConfigDict(extra="forbid")

    amount: Number = Field(gt=0, le=payments.MAX_RECORDED_DOLLARS, description="Dollars, like 1250.00")
    method: Literal["wire", "cheque", "other"] = "wire"
    note: RequiredLongText


class ConsolePayment(Shape):
    id: str
    accountId: str
    accountKind: Literal["buyer", "provider"]
    # The buyer's or provider's id, and its name as the account has it.
    ownerId: str
    accountName: str
    amount: float
    method: Literal["card", "wire", "cheque", "other"]
    status: Literal["pending", "succeeded", "failed", "disputed", "refunded"]
    automatic: bool
    note: str | None
    failure: str | None
    # An operator's e-mail, "cli", a person's e-mail (Checkout) or "automatic top-up".
    recordedBy: str
    createdAt: str
    settledAt: str | None


class ConsolePaymentPage(Shape):
    items: list[ConsolePayment]
    nextCursor: str | None


class RecordedPayment(Shape):
    payment: ConsolePayment
    # The account's balance with the payment, in dollars.
    balance: float


def payment_json(row: Payment, account: LedgerAccount) -> ConsolePayment:
    return ConsolePayment(
        id=row.id, accountId=account.id, accountKind=account.kind, ownerId=account.owner_id, accountName=account.name,
        amount=dollars(row.amount_cents), method=row.method, status=row.status, automatic=row.automatic,
        note=row.note, failure=row.failure, recordedBy=row.recorded_by, createdAt=iso(row.created_at),
        settledAt=iso(row.settled_at))


def record(session: Session, account: LedgerAccount, *, cents: int, method: str, note: str, by: str,
           grace_days: int) -> Payment:
    """The payment, credited; the caller audits and commits (the console and `servicematch payments record`)."""
    return payments.record_payment(session, account, amount_cents=cents, method=method, note=note, by=by,
                                   now=utcnow(), grace_days=grace_days)


@router.get("/payments", response_model=ConsolePaymentPage,
            summary="Payments of every account (or one: accountId), newest first; 100 a page")
def list_payments(caller: AnyOperator, db: Db, account_id: str = Query(default="", alias="accountId", max_length=36),
                  cursor: str | None = Query(default=None, pattern=r"^[A-Za-z0-9_-]{0,200}$")) -> ConsolePaymentPage:
    query = select(Payment, LedgerAccount).join(LedgerAccount, LedgerAccount.id == Payment.account_id)
    if account_id:
        query = query.where(Payment.account_id == account_id)
    if (after := decode_position(cursor)) is not None:
        at, row_id = after
        query = query.where(or_(Payment.created_at < at, and_(Payment.created_at == at, Payment.id < row_id)))
    rows = db.execute(query.order_by(Payment.created_at.desc(), Payment.id.desc()).limit(PAGE + 1)).all()
    page = rows[:PAGE]
    last = page[-1][0] if len(rows) > PAGE else None
    return ConsolePaymentPage(items=[payment_json(row, account) for row, account in page],
                              nextCursor=None if last is None else encode_position(last.created_at, last.id))


@router.post("/accounts/{accountId}/payments", status_code=201, response_model=RecordedPayment,
             responses={404: {"model": ErrorBody, "description": "No account with this id"}},
             summary="Record money received by wire, cheque or otherwise: credited to the account at once (admins)")
def record_payment(body: PaymentReceived, caller: AdminOnly, db: Db, settings: SettingsDep,
                   account_id: str = AccountId) -> RecordedPayment:
    account = db.get(LedgerAccount, account_id, with_for_update=True)
    if account is None:
        raise NotFound("No account with this id.")
    cents = payments.to_cents(body.amount)
    row = record(db, account, cents=cents, method=body.method, note=body.note, by=caller.operator.email,
                 grace_days=settings.overdue_grace_days)
    audit.record(db, action=PAYMENT_RECORD, operator=caller.operator, ip=caller.ip, target=account.id,
                 detail={"paymentId": row.id, "kind": account.kind, "ownerId": account.owner_id, "amountCents": cents,
                         "method": body.method, "note": body.note.strip()[:500]})
    db.commit()
    db.refresh(account)
    return RecordedPayment(payment=payment_json(row, account), balance=dollars(account.balance_cents))
