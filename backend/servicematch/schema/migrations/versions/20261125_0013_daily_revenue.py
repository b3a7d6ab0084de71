"""revenue_daily: the dashboard's daily counts of sales, by the day their lead came in

Revision ID: 20261125_0013
Revises: 20261125_0012
Create Date: 2026-11-25 02:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261125_0013"
down_revision = "20261125_0012"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "revenue_daily",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("vertical", sa.String(length=32), nullable=False),
        sa.Column("service", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=2), nullable=False),
        sa.Column("source", sa.String(length=120), nullable=False),
        sa.Column("buyer_id", sa.String(length=36), nullable=False),
        sa.Column("sales", sa.Integer(), nullable=False),
        sa.Column("cents", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_revenue_daily")),
    )
    op.create_index("ix_revenue_daily_day", "revenue_daily", ["day"])


def downgrade() -> None:
    op.drop_index("ix_revenue_daily_day", table_name="revenue_daily")
    op.drop_table("revenue_daily")
