"""What must be in the ledger for what is on record elsewhere: one entry for each sale, accepted offer
with a price, approved return and approved credit, of the right kind, amount and account.

Sales and offers are routing's, returns the buyer portal's, credit requests the provider portal's:
rooms above this one, whose models the ledger never imports. Their tables are named here by the
few columns the reconciliation reads (a test checks them against the models), so the ledger stays
below them and `ledger check` can still prove every cause against its entries in grouped SQL.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import BigInteger, ColumnElement, String, and_, column, table, true
from sqlalchemy.sql.expression import TableClause

from servicematch.ledger.models import AccountKind, Cause, EntryKind


def _table(name: str, *texts: str, cents: str) -> TableClause:
    return table(name, *(column(text, String) for text in texts), column(cents, BigInteger))


SALES = _table("sales", "id", "lead_id", "buyer_id", cents="price_cents")
OFFERS = _table("provider_offers", "id", "lead_id", "provider_id", "status", cents="price_cents")
RETURNS = _table("lead_returns", "id", "lead_id", "buyer_id", "status", cents="amount_cents")
CREDIT_REQUESTS = _table("credit_requests", "id", "lead_id", "provider_id", "status", cents="amount_cents")
CAUSE_TABLES = (SALES, OFFERS, RETURNS, CREDIT_REQUESTS)

# The statuses that take an entry (routing's OfferStatus.ACCEPTED, the portals' APPROVED).
ACCEPTED = "accepted"
APPROVED = "approved"


@dataclass(frozen=True)
class CauseRule:
    """Rows of `source` that `need` an entry have exactly one: `kind`, on the `account_kind` account
    of `owner`, of `sign` times `cents`. An entry of this cause whose row is gone (with its lead,
    after the consent retention period) is no problem; one whose row does not `allow` it is."""

    cause: str
    noun: str  # "sale", for the report
    source: TableClause
    kind: str
    account_kind: str
    owner: str  # the owner's column in `source`
    cents: str
    sign: int
    need: ColumnElement[bool]
    allow: ColumnElement[bool]

    def expected_cents(self) -> ColumnElement:
        return self.source.c[self.cents] * self.sign


RULES = (
    CauseRule(Cause.SALE, "sale", SALES, EntryKind.CHARGE, AccountKind.BUYER, "buyer_id", "price_cents", -1,
              # A sale whose buyer was deleted has no account to be charged to: not checked.
              need=SALES.c.buyer_id.is_not(None), allow=true()),
    CauseRule(Cause.OFFER, "accepted offer", OFFERS, EntryKind.CHARGE, AccountKind.PROVIDER, "provider_id",
              "price_cents", -1, need=and_(OFFERS.c.status == ACCEPTED, OFFERS.c.price_cents > 0),
              allow=and_(OFFERS.c.status == ACCEPTED, OFFERS.c.price_cents > 0)),
    CauseRule(Cause.RETURN, "approved return", RETURNS, EntryKind.RETURN, AccountKind.BUYER, "buyer_id",
              "amount_cents", 1, need=RETURNS.c.status == APPROVED, allow=RETURNS.c.status == APPROVED),
    CauseRule(Cause.CREDIT_REQUEST, "approved credit", CREDIT_REQUESTS, EntryKind.CREDIT, AccountKind.PROVIDER,
              "provider_id", "amount_cents", 1, need=CREDIT_REQUESTS.c.status == APPROVED,
              allow=CREDIT_REQUESTS.c.status == APPROVED),
)

# Which way each kind of entry may move a balance: at most 0 (-1), at least 0 (1), exactly 0 (0).
# Adjustments and reversals go either way.
SIGNS = {EntryKind.CHARGE: -1, EntryKind.DISPUTE: -1, EntryKind.REFUND: -1, EntryKind.CREDIT: 1,
         EntryKind.RETURN: 1, EntryKind.PAYMENT: 1, EntryKind.PAYMENT_FAILED: 0}
KNOWN_CAUSES = (Cause.SALE, Cause.OFFER, Cause.CREDIT_REQUEST, Cause.RETURN, Cause.PAYMENT, Cause.INVOICE,
                Cause.ADJUSTMENT, Cause.ENTRY)


def sign_breaks_rule(kind: str, sign: int) -> bool:
    """Whether an entry of `kind` whose amount has `sign` (-1, 0, 1) moves the balance the wrong way."""
    rule = SIGNS.get(kind)
    if rule is None:
        return False
    return sign != 0 if rule == 0 else sign == -rule
