"""The filtered leads as CSV, for admins: streamed in pages so a large export holds little memory.

A lead's buyers are the buyers that accepted it (its sales), in the order they did, their names
joined by "; " (a lead sold shared has up to three); its price is what they paid together, in
dollars ("12.50"); both are empty for a lead nobody bought. Then, added after those: when consent
was given and the SHA-256 of the consent text shown (as buyers receive them in the consent
proof), whether and when the consumer withdrew consent, and the lead's source; then its reference
as the consumer is shown it (7K3M-Q9TX), the providers that accepted its offer, in the order they
did ("; " between names), and what each was charged for it, in the same order ("25.00; 30.00":
the opposite of each offer's charge in the ledger; empty where no charge was posted). Each page of
leads costs a fixed number of queries, whatever its length.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.console.leads import (
    LeadFilters,
    contact_of,
    filtered_leads,
    lead_facts,
    lead_statuses,
)
from servicematch.console.paging import iso
from servicematch.delivery.models import Provider
from servicematch.intake.models import Lead
from servicematch.kernel.csv_text import csv_line, dollars
from servicematch.kernel.references import shown_reference
from servicematch.ledger.models import Cause, EntryKind, LedgerEntry
from servicematch.routing.models import Buyer, OfferStatus, ProviderOffer, Sale
from servicematch.settings import Settings

COLUMNS = ("requestId", "createdAt", "vertical", "service", "status", "first", "last", "email", "phone",
           "address1", "address2", "city", "state", "zip", "isDuplicate", "doNotSell", "buyers", "price",
           "consentAt", "consentTextSha256", "revoked", "revokedAt", "source", "reference", "providers",
           "providerCharges")
PAGE = 500


def _sales(session: Session, lead_ids: list[str]) -> dict[str, tuple[str, str]]:
    """Each sold lead's buyers ("; " between names) and total price in dollars."""
    names: defaultdict[str, list[str]] = defaultdict(list)
    cents: defaultdict[str, int] = defaultdict(int)
    for lead_id, name, price in session.execute(
        select(Sale.lead_id, Buyer.name, Sale.price_cents).outerjoin(Buyer, Buyer.id == Sale.buyer_id)
        .where(Sale.lead_id.in_(lead_ids)).order_by(Sale.created_at, Sale.id)
    ):
        names[lead_id].append(name or "deleted buyer")
        cents[lead_id] += price
    return {lead_id: ("; ".join(names[lead_id]), dollars(cents[lead_id])) for lead_id in names}


def _providers(session: Session, lead_ids: list[str]) -> dict[str, tuple[str, str]]:
    """Each lead's providers that accepted its offer ("; " between names) and their charges in dollars."""
    names: defaultdict[str, list[str]] = defaultdict(list)
    charges: defaultdict[str, list[str]] = defaultdict(list)
    for lead_id, name, cents in session.execute(
        select(ProviderOffer.lead_id, Provider.name, LedgerEntry.amount_cents)
        .outerjoin(Provider, Provider.id == ProviderOffer.provider_id)
        .outerjoin(LedgerEntry, and_(LedgerEntry.cause == Cause.OFFER, LedgerEntry.cause_id == ProviderOffer.id,
                                     LedgerEntry.kind == EntryKind.CHARGE))
        .where(ProviderOffer.lead_id.in_(lead_ids), ProviderOffer.status == OfferStatus.ACCEPTED)
        .order_by(ProviderOffer.decided_at, ProviderOffer.id)
    ):
        names[lead_id].append(name or "deleted provider")
        charges[lead_id].append("" if cents is None else dollars(-cents))
    return {lead_id: ("; ".join(names[lead_id]), "; ".join(charges[lead_id])) for lead_id in names}


def export_rows(session_factory: sessionmaker[Session], settings: Settings, filters: LeadFilters) -> Iterator[str]:
    """Header, then one line per lead, newest first; its own session, as it outlives the request's."""
    yield csv_line(list(COLUMNS))
    base = filtered_leads(filters, settings).order_by(Lead.created_at.desc(), Lead.id.desc()).limit(PAGE)
    after = None
    while True:
        with session_factory() as session:
            query = base
            if after is not None:
                moment, lead_id = after
                query = query.where(or_(Lead.created_at < moment,
                                        and_(Lead.created_at == moment, Lead.id < lead_id)))
            leads = list(session.scalars(query).all())
            ids = [lead.id for lead in leads]
            statuses, facts = lead_statuses(session, ids), lead_facts(session, ids)
            sold = _sales(session, ids) if leads else {}
            accepted = _providers(session, ids) if leads else {}
        for lead in leads:
            contact = contact_of(lead, settings).get("contact", {})
            known = facts[lead.id]
            yield csv_line([lead.request_id, iso(lead.created_at), lead.vertical, lead.service, statuses[lead.id],
                         *(contact.get(key, "") for key in ("first", "last", "email", "phone", "address1",
                                                             "address2", "city")),
                         lead.state, lead.zip, lead.is_duplicate, lead.do_not_sell, *sold.get(lead.id, ("", "")),
                         iso(known.consented_at), known.consent_sha256, known.revoked_at is not None,
                         iso(known.revoked_at), known.source, shown_reference(lead.reference),
                         *accepted.get(lead.id, ("", ""))])
        if len(leads) < PAGE:
            return
        after = (leads[-1].created_at, leads[-1].id)
