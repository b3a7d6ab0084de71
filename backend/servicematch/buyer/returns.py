"""Buyers' returns: a buyer gives back a lead it bought, with a reason, and the price comes off its bill.

The rules (docs/buyer-portal.md, "Returns and feedback"), checked in this order:
- One return per sale: a denied return is not lodged again.
- `return_window_days` 0: the buyer takes no returns at all.
- Within `return_window_days` of the sale (UTC, to the second), never after.
- The maximum return share (`max_return_percent`; None: no maximum): the returns the buyer lodged
  this calendar month (UTC), waiting or approved, this one included, may be at most that percent of
  the leads it bought last calendar month, or in the 30 days before now when it bought none last
  month; rounded down, and at least one while the percent is above zero.
Some returns the records decide at once ("system"), and those neither count in the share nor are
refused by it, being the marketplace's own mistake: a lead marked as a test, and a lead whose
consumer this buyer had already bought by its own duplicate rule (docs/quality.md: the window, the
match on phone, e-mail or either, within the service or across all), or, a buyer without one, by
the site's (the same e-mail or phone, by intake's keyed hashes, for the same service within intake's
duplicate window). Every other return waits for an operator
(console/buyer_returns.py). An approved return takes its amount off the buyer's revenue on its
lead's day, as the sale counted (console/revenue.py), and puts it back on the buyer's ledger
account (a RETURN entry), in the transaction of the decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from servicematch.buyer.models import LeadReturn, ReturnReason, ReturnStatus
from servicematch.errors import NothingHere, ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.intake.schemas import LongText
from servicematch.kernel.clock import as_utc
from servicematch.kernel.references import shown_reference
from servicematch.ledger.models import AccountKind, Cause, EntryKind, LedgerEntry
from servicematch.ledger.money_in import money_came_in
from servicematch.ledger.postings import post
from servicematch.ledger.statements import month_start, next_month
from servicematch.ledger.terms import open_account
from servicematch.portal.ledger import iso
from servicematch.privacy.contacts import keys_of_lead, leads_of
from servicematch.routing.buyer_rules import describe_rule, in_scope, rules_of, same_person
from servicematch.routing.models import Buyer, Sale
from servicematch.settings import Settings

# Who decided a return the records prove: nobody had to.
SYSTEM = "system"
REASON_LABELS = {
    ReturnReason.WRONG_PHONE: "Wrong or disconnected phone",
    ReturnReason.DUPLICATE: "Duplicate",
    ReturnReason.FRAUD: "Fake or fraudulent",
    ReturnReason.UNDER_18: "Consumer under 18",
    ReturnReason.OUTSIDE_FILTERS: "Outside the buyer's filters",
    ReturnReason.OTHER: "Other",
}
NO_RETURNS = "This buyer takes no returns."
ALREADY_RETURNED = "This lead was already returned"
NOTE_NEEDED = "Say in a few words what was wrong with the lead."
# The share's base when the buyer bought nothing last calendar month.
FALLBACK_DAYS = 30
# A lead's status in the buyer's lists, by its return's status (none: "sold").
SALE_STATUS = {ReturnStatus.PENDING: "return_pending", ReturnStatus.APPROVED: "returned",
               ReturnStatus.DENIED: "return_denied"}
Reason = Literal["wrong_phone", "duplicate", "fraud", "under_18", "outside_filters", "other"]


class ReturnAsk(BaseModel):
    """What the buyer sends: a reason and, for "other" (and optionally else), its own words."""

    model_config = ConfigDict(extra="forbid")

    reason: Reason
    note: LongText | None = None


class BuyerReturn(BaseModel):
    id: str
    leadId: str
    leadReference: str | None
    reason: Reason
    note: str | None
    status: Literal["pending", "approved", "denied"]
    # Dollars, with cents: the sale's price, what an approval takes off the bill.
    price: float
    createdAt: str
    requestedBy: str
    decidedBy: str | None
    decidedAt: str | None
    decisionNote: str | None


def return_view(row: LeadReturn, reference: str | None) -> BuyerReturn:
    return BuyerReturn(
        id=row.id, leadId=row.lead_id, leadReference=shown_reference(reference) if reference else None,
        reason=row.reason, note=row.note, status=row.status, price=round(row.amount_cents / 100, 2),
        createdAt=iso(row.created_at), requestedBy=row.requested_by, decidedBy=row.decided_by,
        decidedAt=iso(row.decided_at), decisionNote=row.decision_note)


def return_views(session: Session, rows: list[LeadReturn]) -> list[BuyerReturn]:
    """The returns as the buyer sees them, their leads' references read in one query."""
    ids = {row.lead_id for row in rows}
    references = dict(session.execute(select(Lead.id, Lead.reference).where(Lead.id.in_(ids))).all()) if ids else {}
    return [return_view(row, references.get(row.lead_id)) for row in rows]


# -- what may be returned ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Share:
    """The maximum return share as it stands this month: returns counted and allowed, and why."""

    percent: int
    used: int
    allowed: int
    bought: int
    bought_when: str  # "in October 2026" or "in the last 30 days"

    def refusal(self) -> str:
        return (f"This return would pass the maximum return share of {self.percent}%: {self.used} of at most "
                f"{self.allowed} returns lodged this month, against {self.bought} leads bought {self.bought_when}.")


def return_share(session: Session, buyer: Buyer, now: datetime) -> Share | None:
    """This calendar month's (UTC) counted returns and how many the share allows; None without a maximum."""
    if buyer.max_return_percent is None:
        return None
    this_month = month_start(now)
    last_month = month_start(this_month - timedelta(days=1))
    used = session.scalar(select(func.count()).select_from(LeadReturn).where(
        LeadReturn.buyer_id == buyer.id, LeadReturn.created_at >= this_month,
        LeadReturn.created_at < next_month(this_month),
        LeadReturn.status.in_((ReturnStatus.PENDING, ReturnStatus.APPROVED)),
        func.coalesce(LeadReturn.decided_by, "") != SYSTEM)) or 0
    bought, when = _bought(session, buyer.id, last_month, this_month), f"in {last_month:%B %Y}"
    if bought == 0:
        bought = _bought(session, buyer.id, now - timedelta(days=FALLBACK_DAYS), now)
        when = f"in the last {FALLBACK_DAYS} days"
    percent = buyer.max_return_percent
    allowed = 0 if percent <= 0 else max(1, bought * percent // 100)
    return Share(percent=percent, used=used, allowed=allowed, bought=bought, bought_when=when)


def _bought(session: Session, buyer_id: str, start: datetime, end: datetime) -> int:
    return session.scalar(select(func.count()).select_from(Sale).where(
        Sale.buyer_id == buyer_id, Sale.created_at >= start, Sale.created_at < end)) or 0


def returnable_until(buyer: Buyer, sale: Sale) -> datetime | None:
    """The last moment the sale may be returned; None when the buyer takes no returns."""
    days = buyer.return_window_days or 0
    return as_utc(sale.created_at) + timedelta(days=days) if days > 0 else None


def system_approval(session: Session, sale: Sale, lead: Lead | None, duplicate_window_days: int,
                    buyer: Buyer | None = None) -> str | None:
    """Why the records approve a return of this sale at once (the note the buyer reads), or None.
    A duplicate is judged by the buyer's own rule when it has one, else by the site's window."""
    if lead is None:
        return None
    if lead.is_test:
        return "Approved automatically: the lead was a test."
    own_rule = buyer is not None and buyer.duplicate_days is not None
    since = as_utc(lead.created_at) - timedelta(days=buyer.duplicate_days if own_rule else duplicate_window_days)
    earlier = [other.id for other in leads_of(session=session, keys=keys_of_lead(lead))
               if other.id != lead.id and as_utc(other.created_at) >= since
               and (same_person(buyer, lead, other) and in_scope(buyer, lead, other) if own_rule
                    else other.service == lead.service)]
    if earlier and session.scalar(select(Sale.id).where(
            Sale.buyer_id == sale.buyer_id, Sale.lead_id.in_(earlier), Sale.created_at <= sale.created_at,
            Sale.id != sale.id).limit(1)) is not None:
        if own_rule:
            return ("Approved automatically: you had already bought this consumer's request, a duplicate by your "
                    f"rule ({describe_rule(rules_of(buyer))}).")
        return "Approved automatically: you had already bought this consumer's request for the same service."
    return None


def _duplicate_window(settings: Settings | None) -> int:
    return settings.duplicate_window_days if settings else Settings.model_fields["duplicate_window_days"].default


def return_problem(session: Session, buyer: Buyer, sale: Sale, now: datetime,
                   settings: Settings | None = None) -> str | None:
    """Why this sale may not be returned now, in a sentence for the buyer; None when it may.
    `settings` gives intake's duplicate window (its default when not given)."""
    lodged = session.scalar(select(LeadReturn.status).where(LeadReturn.sale_id == sale.id))
    if lodged is not None:
        return f"{ALREADY_RETURNED} (the return is {lodged})."
    until = returnable_until(buyer, sale)
    if until is None:
        return NO_RETURNS
    if now > until:
        return (f"The return window of {buyer.return_window_days} days after the sale ended on "
                f"{until:%Y-%m-%d %H:%M} UTC.")
    share = return_share(session, buyer, now)
    if share is not None and share.used >= share.allowed and system_approval(
            session, sale, session.get(Lead, sale.lead_id), _duplicate_window(settings), buyer) is None:
        return share.refusal()
    return None


# -- lodging and deciding ----------------------------------------------------------------------------

def own_sale(session: Session, buyer: Buyer, lead_id: str) -> Sale:
    """The buyer's sale of this lead; a lead it never bought, another buyer's or none, is a 404 with nothing in it."""
    sale = session.scalar(select(Sale).where(Sale.lead_id == lead_id[:36], Sale.buyer_id == buyer.id)
                          .order_by(Sale.created_at).limit(1))
    if sale is None:
        raise NothingHere()
    return sale


def _refuse(problem: str) -> ServiceMatchError:
    status = 409 if problem.startswith(ALREADY_RETURNED) else 422
    return ServiceMatchError(problem, fields={"reason": problem}, status_code=status)


def lodge_return(session: Session, settings: Settings, buyer: Buyer, sale: Sale, ask: ReturnAsk, *, who: str,
                 now: datetime) -> LeadReturn:
    """Store the return, decided at once when the records can (approved by "system"); the caller
    audits and commits. The buyer's row is locked first, so two returns at once cannot both take
    the month's last place in the share."""
    session.execute(select(Buyer.id).where(Buyer.id == buyer.id).with_for_update())
    note = (ask.note or "").strip() or None
    if ask.reason == ReturnReason.OTHER and not note:
        raise ServiceMatchError(NOTE_NEEDED, fields={"note": NOTE_NEEDED}, status_code=422)
    if (problem := return_problem(session, buyer, sale, now, settings)) is not None:
        raise _refuse(problem)
    automatic = system_approval(session, sale, session.get(Lead, sale.lead_id), settings.duplicate_window_days,
                                buyer)
    row = LeadReturn(sale_id=sale.id, buyer_id=buyer.id, lead_id=sale.lead_id, reason=ask.reason, note=note,
                     status=ReturnStatus.PENDING, amount_cents=sale.price_cents, requested_by=who[:254],
                     created_at=now)
    session.add(row)
    try:
        session.flush()
    except IntegrityError as exc:  # the same sale's return, committed a moment ago by another call
        session.rollback()
        raise _refuse(f"{ALREADY_RETURNED} (a moment ago).") from exc
    if automatic is not None:
        decide_return(session, row, approve=True, by=SYSTEM, note=automatic, now=now)
    return row


def decide_return(session: Session, row: LeadReturn, *, approve: bool, by: str, note: str | None,
                  now: datetime) -> None:
    """Approve (the price goes back to the buyer's account and off the revenue) or deny a waiting return."""
    if row.status != ReturnStatus.PENDING:
        raise ServiceMatchError(f"This return was already {row.status}.", status_code=409)
    row.status = ReturnStatus.APPROVED if approve else ReturnStatus.DENIED
    row.decided_at, row.decided_by, row.decision_note = now, by[:254], note or None
    if approve:
        post_return(session, row, now=now)
    session.flush()


def post_return(session: Session, row: LeadReturn, *, now: datetime) -> LedgerEntry:
    """The approved return's entry: its amount back to the buyer's account, with the lead's service
    and state (as the sale's charge carries them); posted once, however often it is called."""
    buyer = session.get(Buyer, row.buyer_id)
    lead = session.get(Lead, row.lead_id)
    account = open_account(session, AccountKind.BUYER, row.buyer_id, name=buyer.name if buyer else "", now=now)
    label = REASON_LABELS.get(row.reason, row.reason)
    entry = post(session, account, kind=EntryKind.RETURN, amount_cents=row.amount_cents, cause=Cause.RETURN,
                 cause_id=row.id, lead_id=row.lead_id, description=f"Return: {label.lower()}",
                 vertical=lead.vertical if lead else None, service=lead.service if lead else None,
                 state=lead.state if lead else None, created_by=row.decided_by or SYSTEM, now=now)
    money_came_in(session, account, now)
    return entry


def returned_cents(session: Session, buyer_ids: list[str], start: datetime, end: datetime) -> dict[str, int]:
    """Cents of approved returns of sales made in [start, end), per buyer: what comes off what each owes
    for those sales (a bill, or spend this month)."""
    if not buyer_ids:
        return {}
    rows = session.execute(select(LeadReturn.buyer_id, func.sum(LeadReturn.amount_cents))
                           .join(Sale, Sale.id == LeadReturn.sale_id)
                           .where(LeadReturn.buyer_id.in_(buyer_ids), LeadReturn.status == ReturnStatus.APPROVED,
                                  Sale.created_at >= start, Sale.created_at < end)
                           .group_by(LeadReturn.buyer_id)).all()
    return {buyer_id: int(cents or 0) for buyer_id, cents in rows}
