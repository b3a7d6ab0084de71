"""Tables of the paying side: buyers, every step of each lead's auction, and the sales it made."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.orm import Base


class Buyer(Base):
    """A lead platform or call centre that bids for leads (ping URL) or buys at a fixed price."""

    __tablename__ = "buyers"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    post_url: Mapped[str] = mapped_column(Text)
    # Without a ping URL the buyer "bids" its fixed price for every lead it qualifies for.
    ping_url: Mapped[str | None] = mapped_column(Text)
    price_cents: Mapped[int | None] = mapped_column(Integer)
    # Service slugs or vertical/slug; empty means every service. Same for states and ZIPs.
    services: Mapped[list] = mapped_column(JSON, default=list)
    states: Mapped[list] = mapped_column(JSON, default=list)
    zips: Mapped[list] = mapped_column(JSON, default=list)
    exclusive: Mapped[bool] = mapped_column(Boolean, default=False)
    daily_cap: Mapped[int | None] = mapped_column(Integer)
    monthly_budget_cents: Mapped[int | None] = mapped_column(Integer)
    # "Mon-Fri 08:00-18:00 America/New_York"; empty means always (routing/hours.py).
    hours: Mapped[str | None] = mapped_column(String(120))
    # Standard Webhooks signing secret (whsec_...), for pings and posts alike.
    secret: Mapped[str] = mapped_column(String(200))
    # The previous secret after a rotation: posts and pings carry a second signature made with it
    # until previous_secret_until (Standard Webhooks allows several), so a buyer can switch over.
    previous_secret: Mapped[str | None] = mapped_column(String(200))
    previous_secret_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The operator's switch: an inactive buyer is never pinged, posted or signed in to.
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    # The buyer's own pause, from its portal or API: no pings or posts while set.
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # A ping buyer's least bid that counts: a bid below it is a pass ("below your floor").
    bid_floor_cents: Mapped[int | None] = mapped_column(Integer)
    # Days after a sale the buyer may return the lead; 0 means no returns.
    return_window_days: Mapped[int] = mapped_column(Integer, default=7)
    # Returns allowed as a share of last month's leads, in percent; None means no maximum.
    max_return_percent: Mapped[int | None] = mapped_column(Integer, default=15)
    # Settings the buyer's people may see but not change (names from the portal's settings).
    locked_fields: Mapped[list] = mapped_column(JSON, default=list)
    # The buyer's own rules (routing/buyer_rules.py, docs/quality.md): the least quality score of a
    # lead it is pinged for (None: any), and its duplicate rule: a lead of a person it was pinged for
    # or bought within `duplicate_days` days (None: the site's rule), matched by phone, e-mail or
    # either, within the same service or across all.
    min_quality: Mapped[int | None] = mapped_column(Integer)
    duplicate_days: Mapped[int | None] = mapped_column(Integer)
    duplicate_match: Mapped[str] = mapped_column(String(8), default="phone", server_default="phone")
    duplicate_scope: Mapped[str] = mapped_column(String(8), default="service", server_default="service")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class StepKind:
    PING = "ping"          # a ping sent to a buyer
    BID = "bid"            # a buyer's bid (a fixed-price buyer's price counts as its bid)
    PASS = "pass"          # a buyer passed: said no, answered garbage, late or not at all
    OUTCOME = "outcome"    # the decision: exclusive or shared, to whom, committed before any post
    POST = "post"          # the full lead posted to a winner
    ACCEPTED = "accepted"  # the winner took it (a 2xx): it is charged
    REFUSED = "refused"    # the winner refused or failed: the lead passes to the next bid
    CLOSED = "closed"      # nothing more to post: the auction is over


class AuctionStep(Base):
    """One line of a lead's auction waterfall, with its time in ms since the lead was committed."""

    __tablename__ = "auction_steps"
    __table_args__ = (Index("ix_auction_steps_buyer_time", "buyer_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    lead_id: Mapped[str] = mapped_column(ForeignKey("leads.id", ondelete="CASCADE"), index=True)
    buyer_id: Mapped[str | None] = mapped_column(ForeignKey("buyers.id", ondelete="SET NULL"))
    kind: Mapped[str] = mapped_column(String(16))
    amount_cents: Mapped[int | None] = mapped_column(Integer)
    exclusive: Mapped[bool | None] = mapped_column(Boolean)
    detail: Mapped[str | None] = mapped_column(Text)
    at_ms: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Auction(Base):
    """A lead's routing state: what mode it was sold in, and whether anything is left to post."""

    __tablename__ = "auctions"

    lead_id: Mapped[str] = mapped_column(ForeignKey("leads.id", ondelete="CASCADE"), primary_key=True)
    # None until a buyer is posted to; then "exclusive" or "shared" for good.
    mode: Mapped[str | None] = mapped_column(String(16))
    # Providers' deliveries are written once, when the lead is first routed as shared.
    providers_routed: Mapped[bool] = mapped_column(Boolean, default=False)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Sale(Base):
    """Revenue: a post a buyer accepted, at the price it bid."""

    __tablename__ = "sales"
    __table_args__ = (
        Index("ix_sales_created_at", "created_at"),
        # A buyer's leads, newest first (its portal and API).
        Index("ix_sales_buyer_created", "buyer_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    lead_id: Mapped[str] = mapped_column(ForeignKey("leads.id", ondelete="CASCADE"), index=True)
    buyer_id: Mapped[str | None] = mapped_column(ForeignKey("buyers.id", ondelete="SET NULL"))
    price_cents: Mapped[int] = mapped_column(Integer)
    exclusive: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class BuyerSpendDay(Base):
    """A buyer's purchases on one UTC day: leads and cents, added to in the transaction of each sale.

    The daily cap and the monthly budget read these (at most 31 rows a buyer) instead of adding up
    the month's sales for every lead routed, which grew with the month; a lead erased later leaves
    what was spent on it counted, as the buyer's invoice does."""

    __tablename__ = "buyer_spend_days"

    buyer_id: Mapped[str] = mapped_column(ForeignKey("buyers.id", ondelete="CASCADE"), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    leads: Mapped[int] = mapped_column(Integer, default=0)
    cents: Mapped[int] = mapped_column(BigInteger, default=0)


class OfferStatus:
    OPEN = "open"            # waiting for the provider's tap, until expires_at
    ACCEPTED = "accepted"    # the provider took it (or auto-accept did): charged, contact details shown
    DECLINED = "declined"    # the provider said no: free; routing may offer the lead to the next provider
    EXPIRED = "expired"      # not accepted within SERVICEMATCH_OFFER_TTL_MINUTES: as declined
    WITHDRAWN = "withdrawn"  # the consumer stopped or erased the request before the provider accepted
    ALL = (OPEN, ACCEPTED, DECLINED, EXPIRED, WITHDRAWN)
    # Still holding one of the lead's three company seats.
    HOLDING_A_SEAT = (OPEN, ACCEPTED)


class ProviderOffer(Base):
    """A lead offered to a provider in review mode: the job without the consumer's contact details,
    to accept (charged at `price_cents`) or decline. One per lead and provider."""

    __tablename__ = "provider_offers"
    __table_args__ = (
        UniqueConstraint("lead_id", "provider_id", name="uq_provider_offers_lead_id_provider_id"),
        # The portal's lists: a provider's offers, newest first, by status.
        Index("ix_provider_offers_provider_created", "provider_id", "created_at"),
        Index("ix_provider_offers_provider_status_created", "provider_id", "status", "created_at"),
        # The expiry chore: open offers past their time.
        Index("ix_provider_offers_status_expires", "status", "expires_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    lead_id: Mapped[str] = mapped_column(ForeignKey("leads.id", ondelete="CASCADE"), index=True)
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(16), default=OfferStatus.OPEN)
    # Only this provider gets the lead (it opted in to exclusive leads), at the exclusive price.
    exclusive: Mapped[bool] = mapped_column(Boolean, default=False)
    price_cents: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Accepted by the provider's own tap, or at once by its auto-accept setting.
    auto_accepted: Mapped[bool] = mapped_column(Boolean, default=False)
    # When the consumer was asked to rate this provider (seven days after acceptance), once.
    review_requested_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

