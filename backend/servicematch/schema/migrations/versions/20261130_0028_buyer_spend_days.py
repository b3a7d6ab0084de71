"""each buyer's purchases by day, which the daily cap and the monthly budget read instead of adding
up the month's sales for every lead routed; filled from the sales already made

Revision ID: 20261130_0028
Revises: 20261129_0027
Create Date: 2026-11-30 08:00:00
"""

from collections import Counter
from datetime import UTC

import sqlalchemy as sa
from alembic import op

revision = "20261130_0028"
down_revision = "20261129_0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    spend_days = op.create_table(
        "buyer_spend_days",
        sa.Column("buyer_id", sa.String(length=36), sa.ForeignKey("buyers.id", ondelete="CASCADE"), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("leads", sa.Integer(), nullable=False),
        sa.Column("cents", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("buyer_id", "day"),
    )
    sales = sa.table("sales", sa.column("buyer_id", sa.String()), sa.column("price_cents", sa.Integer()),
                     sa.column("created_at", sa.DateTime(timezone=True)))
    leads: Counter = Counter()
    cents: Counter = Counter()
    # Grouped here rather than in SQL: the day is the UTC day on both databases, whatever the
    # session's time zone, and a sale's created_at comes back as each database stores it.
    result = op.get_bind().execute(
        sa.select(sales.c.buyer_id, sales.c.price_cents, sales.c.created_at).where(sales.c.buyer_id.is_not(None))
        .execution_options(yield_per=10_000))
    for buyer_id, price_cents, created_at in result:
        at = created_at if created_at.tzinfo is None else created_at.astimezone(UTC)
        key = (buyer_id, at.date())
        leads[key] += 1
        cents[key] += price_cents or 0
    rows = [{"buyer_id": buyer_id, "day": day, "leads": count, "cents": cents[buyer_id, day]}
            for (buyer_id, day), count in leads.items()]
    if rows:
        op.bulk_insert(spend_days, rows)


def downgrade() -> None:
    op.drop_table("buyer_spend_days")
