"""leads.source says "website" (the lead's own source, as its payload states it) where it said
"direct", and the daily delivery counts keep leads, consent receipts and privacy notices apart
(delivery_daily.payload_kind)

leads.source is derived by the database, so it is dropped and added again with the new expression
(PostgreSQL rewrites the table once; SQLite computes it on read) and the console's per-day index
with it. The lead and revenue counts kept by source follow: "direct" becomes "website", except on
the days of a lead whose subid1 is literally "direct" (its source stays "direct"), whose counts
are forgotten so that the next roll-up counts them afresh (the dashboard reads them live meanwhile).

The delivery counts held privacy notices among the leads' deliveries and no receipt, and cannot be
told apart: every delivery day's counts are forgotten and counted again, by what each delivery
carried, by the next roll-up (the delivery worker's hourly chore, which runs first soon after
it starts; the dashboard reads those days live until then).

Revision ID: 20261126_0015
Revises: 20261125_0013
Create Date: 2026-11-26 02:00:00
"""

from datetime import UTC, date, datetime

import sqlalchemy as sa
from alembic import op

revision = "20261126_0015"
down_revision = "20261126_0014"
branch_labels = None
depends_on = None

DAY_COLUMNS = ["created_at", "vertical", "service", "state", "source"]
WEBSITE, DIRECT = "website", "direct"
# Daily count tables by the kind of their reported_days rows.
LEAD_COUNTS = ("leads", ("lead_daily",))
REVENUE_COUNTS = ("revenue", ("revenue_daily",))
DELIVERY_COUNTS = ("deliveries", ("delivery_daily", "delivery_latency_daily"))


def _source(fallback: str) -> sa.ColumnElement:
    """subid1's value, else "subid2:<value>", else "fbclid" when present, else `fallback`."""
    clicked = {key: sa.func.coalesce(sa.column("click", sa.JSON)[key].as_string(), sa.literal(""))
               for key in ("subid1", "subid2", "fbclid")}
    return sa.case((clicked["subid1"] != "", clicked["subid1"]),
                   (clicked["subid2"] != "", sa.literal("subid2:") + clicked["subid2"]),
                   (clicked["fbclid"] != "", sa.literal("fbclid")), else_=sa.literal(fallback))


def _derive_source(fallback: str) -> None:
    stored = op.get_bind().dialect.name != "sqlite"
    op.drop_index("ix_leads_console_day", table_name="leads")
    op.drop_column("leads", "source")
    op.add_column("leads", sa.Column("source", sa.String(length=120), sa.Computed(_source(fallback), persisted=stored)))
    op.create_index("ix_leads_console_day", "leads", DAY_COLUMNS)


def _day(moment: datetime | str) -> date:
    if isinstance(moment, str):  # SQLite
        moment = datetime.fromisoformat(moment)
    return (moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)).date()


def _relabel_counts(kind: str, tables: tuple[str, ...], unclear_days: set[date], old: str, new: str) -> None:
    """Counts kept under source `old` are now under `new`; a day where `old` still names some
    leads is forgotten instead, to be counted again."""
    bind = op.get_bind()
    reported = sa.table("reported_days", sa.column("kind"), sa.column("day", sa.Date))
    if unclear_days:
        bind.execute(sa.delete(reported).where(reported.c.kind == kind, reported.c.day.in_(unclear_days)))
    for name in tables:
        table = sa.table(name, sa.column("day", sa.Date), sa.column("source"))
        if unclear_days:
            bind.execute(sa.delete(table).where(table.c.day.in_(unclear_days)))
        bind.execute(sa.update(table).where(table.c.source == old).values(source=new))


def _relabel_lead_counts(old: str, new: str) -> None:
    """After the column says `new` where it said `old`: the leads that still say `old` (their
    subid1 is that word) make their days unclear. (The delivery counts are counted again whole.)"""
    leads = sa.table("leads", sa.column("created_at", sa.DateTime(timezone=True)), sa.column("source"))
    unclear = {_day(moment) for moment in op.get_bind().execute(
        sa.select(leads.c.created_at).where(leads.c.source == old)).scalars()}
    for kind, tables in (LEAD_COUNTS, REVENUE_COUNTS):
        _relabel_counts(kind, tables, unclear, old, new)


def _forget_delivery_counts() -> None:
    kind, tables = DELIVERY_COUNTS
    bind = op.get_bind()
    bind.execute(sa.delete(sa.table("reported_days", sa.column("kind"))).where(sa.column("kind") == kind))
    for name in tables:
        bind.execute(sa.delete(sa.table(name)))


def upgrade() -> None:
    _derive_source(WEBSITE)
    _relabel_lead_counts(DIRECT, WEBSITE)
    _forget_delivery_counts()
    # Empty now: the column needs no default (batch mode, as SQLite adds no NOT NULL column without one).
    with op.batch_alter_table("delivery_daily") as batch:
        batch.add_column(sa.Column("payload_kind", sa.String(length=24), nullable=False))


def downgrade() -> None:
    _forget_delivery_counts()
    with op.batch_alter_table("delivery_daily") as batch:
        batch.drop_column("payload_kind")
    _derive_source(DIRECT)
    _relabel_lead_counts(WEBSITE, DIRECT)
