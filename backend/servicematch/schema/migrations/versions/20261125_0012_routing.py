"""Routing out of intake: lead_events ("lead accepted", consumed by routing), buyers, each lead's
auction and its steps, sales; deliveries.buyer_id; rate limits leave the database.

Revision ID: 20261125_0012
Revises: 20261124_0011
Create Date: 2026-11-25 01:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261125_0012"
down_revision = "20261124_0011"
branch_labels = None
depends_on = None


def _when(name: str, nullable: bool = True) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "lead_events",
        sa.Column("id", sa.String(length=36), primary_key=True),
        sa.Column("lead_id", sa.String(length=36), sa.ForeignKey("leads.id", ondelete="CASCADE"), nullable=False),
        sa.Column("type", sa.String(length=32), nullable=False),
        _when("created_at", nullable=False), _when("claimed_until"),
        sa.Column("claim_token", sa.String(length=36), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        _when("done_at"),
    )
    op.create_index("ix_lead_events_lead_id", "lead_events", ["lead_id"])
    op.create_index("ix_lead_events_pending", "lead_events", ["done_at", "created_at"])
    op.create_table(
        "buyers",
        sa.Column("id", sa.String(length=36), primary_key=True),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("post_url", sa.Text(), nullable=False),
        sa.Column("ping_url", sa.Text(), nullable=True),
        sa.Column("price_cents", sa.Integer(), nullable=True),
        sa.Column("services", sa.JSON(), nullable=False),
        sa.Column("states", sa.JSON(), nullable=False),
        sa.Column("zips", sa.JSON(), nullable=False),
        sa.Column("exclusive", sa.Boolean(), nullable=False),
        sa.Column("daily_cap", sa.Integer(), nullable=True),
        sa.Column("monthly_budget_cents", sa.Integer(), nullable=True),
        sa.Column("hours", sa.String(length=120), nullable=True),
        sa.Column("secret", sa.String(length=200), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        _when("created_at", nullable=False), _when("updated_at", nullable=False),
    )
    op.create_table(
        "auction_steps",
        sa.Column("id", sa.String(length=36), primary_key=True),
        sa.Column("lead_id", sa.String(length=36), sa.ForeignKey("leads.id", ondelete="CASCADE"), nullable=False),
        sa.Column("buyer_id", sa.String(length=36), sa.ForeignKey("buyers.id", ondelete="SET NULL"), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("amount_cents", sa.Integer(), nullable=True),
        sa.Column("exclusive", sa.Boolean(), nullable=True),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.Column("at_ms", sa.Integer(), nullable=False),
        _when("created_at", nullable=False),
    )
    op.create_index("ix_auction_steps_lead_id", "auction_steps", ["lead_id"])
    op.create_index("ix_auction_steps_buyer_time", "auction_steps", ["buyer_id", "created_at"])
    op.create_table(
        "auctions",
        sa.Column("lead_id", sa.String(length=36), sa.ForeignKey("leads.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("mode", sa.String(length=16), nullable=True),
        sa.Column("providers_routed", sa.Boolean(), nullable=False),
        _when("closed_at"), _when("created_at", nullable=False),
    )
    op.create_table(
        "sales",
        sa.Column("id", sa.String(length=36), primary_key=True),
        sa.Column("lead_id", sa.String(length=36), sa.ForeignKey("leads.id", ondelete="CASCADE"), nullable=False),
        sa.Column("buyer_id", sa.String(length=36), sa.ForeignKey("buyers.id", ondelete="SET NULL"), nullable=True),
        sa.Column("price_cents", sa.Integer(), nullable=False),
        sa.Column("exclusive", sa.Boolean(), nullable=False),
        _when("created_at", nullable=False),
    )
    op.create_index("ix_sales_lead_id", "sales", ["lead_id"])
    op.create_index("ix_sales_buyer_id", "sales", ["buyer_id"])
    op.create_index("ix_sales_created_at", "sales", ["created_at"])
    with op.batch_alter_table("deliveries") as batch_op:
        batch_op.add_column(sa.Column("buyer_id", sa.String(length=36), nullable=True))
        batch_op.create_index("ix_deliveries_buyer_id", ["buyer_id"])
        batch_op.create_foreign_key("fk_deliveries_buyer_id_buyers", "buyers", ["buyer_id"], ["id"],
                                    ondelete="SET NULL")
    # Rate limits live in memory or Redis now (inbound/ratelimit.py).
    op.drop_index("ix_rate_limit_counters_expires_at", table_name="rate_limit_counters")
    op.drop_table("rate_limit_counters")


def downgrade() -> None:
    op.create_table(
        "rate_limit_counters",
        sa.Column("bucket", sa.String(length=300), primary_key=True),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_rate_limit_counters_expires_at", "rate_limit_counters", ["expires_at"])
    with op.batch_alter_table("deliveries") as batch_op:
        batch_op.drop_constraint("fk_deliveries_buyer_id_buyers", type_="foreignkey")
        batch_op.drop_index("ix_deliveries_buyer_id")
        batch_op.drop_column("buyer_id")
    for table in ("sales", "auctions", "auction_steps", "buyers", "lead_events"):
        op.drop_table(table)
