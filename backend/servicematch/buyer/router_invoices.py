"""A buyer's monthly invoices, for its people (/api/buyer, the portal) and its systems (/api/buyer/v1,
an API key): the list, one invoice with its lines, and its PDF (docs/money.md, "Invoices").

Only the caller's own buyer's invoices: another buyer's invoice, or none, answers 404 with no body.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query

from servicematch.buyer.auth import SignedInBuyer
from servicematch.buyer.prefixes import BothPrefixes
from servicematch.deps import SessionDep, SettingsDep
from servicematch.kernel.clock import utcnow
from servicematch.ledger.invoice_views import (
    PDF_ANSWER,
    InvoiceDetail,
    InvoicePage,
    InvoicePdf,
    invoice_page,
    own_invoice_detail,
    own_invoice_pdf,
    owner_account_id,
)
from servicematch.ledger.models import AccountKind

NOT_THEIRS = {404: {"description": "Not one of this buyer's invoices (another buyer's, or none): no body at all"}}
InvoiceId = Annotated[str, Path(alias="invoiceId", max_length=64, description="The invoice's id, as the list gives it")]

both = BothPrefixes()
on_both = both.route


def _account_id(db, caller) -> str | None:
    return owner_account_id(db, AccountKind.BUYER, caller.buyer.id)


@on_both("GET", "/invoices", response_model=InvoicePage,
         summary="This buyer's monthly invoices, newest first; 24 a page")
def list_invoices(caller: SignedInBuyer, db: SessionDep,
                  cursor: str | None = Query(default=None, max_length=20, description="The last page's nextCursor")
                  ) -> InvoicePage:
    return invoice_page(db, _account_id(db, caller), cursor, utcnow())


# Before /invoices/{invoiceId}: that path would otherwise take "<id>.pdf" as an id.
@on_both("GET", "/invoices/{invoiceId}.pdf", response_class=InvoicePdf, responses={**PDF_ANSWER, **NOT_THEIRS},
         summary="One of this buyer's invoices as a PDF")
def read_invoice_pdf(invoice_id: InvoiceId, caller: SignedInBuyer, db: SessionDep,
                     settings: SettingsDep) -> InvoicePdf:
    return own_invoice_pdf(db, _account_id(db, caller), invoice_id, settings.brand_name)


@on_both("GET", "/invoices/{invoiceId}", response_model=InvoiceDetail, responses=NOT_THEIRS,
         summary="One of this buyer's invoices: totals, amount due, due date and every line")
def read_invoice(invoice_id: InvoiceId, caller: SignedInBuyer, db: SessionDep) -> InvoiceDetail:
    return own_invoice_detail(db, _account_id(db, caller), invoice_id, utcnow())


router = both.router
