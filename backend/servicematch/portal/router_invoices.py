"""A provider's monthly invoices in the portal: the list, one invoice with its lines, and its PDF
(docs/money.md, "Invoices").

Every route takes the provider's own id (OwnProvider): another provider's id, or another account's
invoice, answers 404 with no body.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

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
from servicematch.portal.auth import Caller, OwnProvider

NOT_THEIRS = {404: {"description": "Not this account's provider or invoice, or none: no body at all"}}
InvoiceId = Annotated[str, Path(max_length=64, description="The invoice's id, as the list gives it")]

# Included in the portal's router (portal/router.py), under its /api/pro.
router = APIRouter(prefix="/providers/{provider_id}/invoices", responses=NOT_THEIRS)


def _account_id(db, caller: Caller) -> str | None:
    return owner_account_id(db, AccountKind.PROVIDER, caller.provider.id)


@router.get("", response_model=InvoicePage, summary="The provider's monthly invoices, newest first; 24 a page")
def list_invoices(caller: OwnProvider, db: SessionDep,
                  cursor: str | None = Query(default=None, max_length=20, description="The last page's nextCursor")
                  ) -> InvoicePage:
    return invoice_page(db, _account_id(db, caller), cursor, utcnow())


# Before /{invoice_id}: that path would otherwise take "<id>.pdf" as an id.
@router.get("/{invoice_id}.pdf", response_class=InvoicePdf, responses=PDF_ANSWER,
            summary="One of the provider's invoices as a PDF")
def read_invoice_pdf(invoice_id: InvoiceId, caller: OwnProvider, db: SessionDep, settings: SettingsDep) -> InvoicePdf:
    return own_invoice_pdf(db, _account_id(db, caller), invoice_id, settings.brand_name)


@router.get("/{invoice_id}", response_model=InvoiceDetail,
            summary="One of the provider's invoices: totals, amount due, due date and every line")
def read_invoice(invoice_id: InvoiceId, caller: OwnProvider, db: SessionDep) -> InvoiceDetail:
    return own_invoice_detail(db, _account_id(db, caller), invoice_id, utcnow())
