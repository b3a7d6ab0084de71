"""leads.source says "website" (the lead's own source, as its payload states it) where it said
"direct", a lead without subid1, subid2 or fbclid

The column is derived by the database, so it is dropped and added again with the new expression
(PostgreSQL rewrites the table once; SQLite computes it on read) and the console's per-day index
with it. The daily counts kept by source follow: "direct" becomes "website", except on the days
of a lead whose subid1 is literally "direct" (its source stays "direct"), whose counts are
forgotten so that the next roll-up counts them afresh (the dashboard reads them live meanwhile).

Revision ID: 20261126_0015
Revises: 20261125_0013
Create Date: 2026-11-26 02:00:00
"""

from datetime import UTC, date, datetime

import sqlalchemy as sa
from alembic import op

revision = "20261126_0015"
down_revision = "20261125_0013"
branch_labels = None
depends_on = None

DAY_COLUMNS = ["created_at", "vertical", "service", "state", "source"]
WEBSITE, DIRECT = "website", "direct"
# Daily count tables by the kind of their reported_days rows, and the time that gives their day.
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


def _days_of(statement) -> set[date]:
    return {_day(moment) for moment in op.get_bind().execute(statement).scalars()}


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


def _relabel_every_count(old: str, new: str) -> None:
    """After the column says `new` where it said `old`: the leads that still say `old` (their
    subid1 is that word) make their days unclear."""
    leads = sa.table("leads", sa.column("id"), sa.column("created_at", sa.DateTime(timezone=True)), sa.column("source"))
    deliveries = sa.table("deliveries", sa.column("lead_id"), sa.column("created_at", sa.DateTime(timezone=True)))
    lead_days = _days_of(sa.select(leads.c.created_at).where(leads.c.source == old))
    delivery_days = _days_of(sa.select(deliveries.c.created_at).join(leads, leads.c.id == deliveries.c.lead_id)
                             .where(leads.c.source == old))
    for (kind, tables), days in ((LEAD_COUNTS, lead_days), (REVENUE_COUNTS, lead_days),
                                 (DELIVERY_COUNTS, delivery_days)):
        _relabel_counts(kind, tables, days, old, new)


def upgrade() -> None:
    _derive_source(WEBSITE)
    _relabel_every_count(DIRECT, WEBSITE)


def downgrade() -> None:
    _derive_source(DIRECT)
    _relabel_every_count(WEBSITE, DIRECT)
