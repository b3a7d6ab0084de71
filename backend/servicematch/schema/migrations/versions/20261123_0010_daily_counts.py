"""lead_daily, delivery_daily, delivery_latency_daily, reported_days: the dashboard's daily counts

Revision ID: 20261123_0010
Revises: 20261123_0009
Create Date: 2026-11-23 16:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261123_0010"
down_revision = "20261123_0009"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _dimensions() -> list[sa.Column]:
    return [
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("vertical", sa.String(length=32), nullable=False),
        sa.Column("service", sa.String(length=64), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "lead_daily", *_dimensions(),
        sa.Column("state", sa.String(length=2), nullable=False),
        sa.Column("source", sa.String(length=120), nullable=False),
        sa.Column("leads", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lead_daily")),
    )
    op.create_index("ix_lead_daily_day", "lead_daily", ["day"])
    op.create_table(
        "delivery_daily", *_dimensions(),
        sa.Column("state", sa.String(length=2), nullable=False),
        sa.Column("source", sa.String(length=120), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("deliveries", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_delivery_daily")),
    )
    op.create_index("ix_delivery_daily_day", "delivery_daily", ["day"])
    op.create_table(
        "delivery_latency_daily", *_dimensions(),
        sa.Column("grain", sa.String(length=8), nullable=False),
        sa.Column("state", sa.String(length=2), nullable=False),
        sa.Column("source", sa.String(length=120), nullable=False),
        sa.Column("bucket", sa.Integer(), nullable=False),
        sa.Column("deliveries", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_delivery_latency_daily")),
    )
    op.create_index("ix_delivery_latency_daily_day_grain", "delivery_latency_daily", ["day", "grain"])
    op.create_table(
        "reported_days",
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("counted_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("kind", "day", name=op.f("pk_reported_days")),
    )


def downgrade() -> None:
    op.drop_table("reported_days")
    op.drop_index("ix_delivery_latency_daily_day_grain", table_name="delivery_latency_daily")
    op.drop_table("delivery_latency_daily")
    for table in ("delivery_daily", "lead_daily"):
        op.drop_index(f"ix_{table}_day", table_name=table)
        op.drop_table(table)
