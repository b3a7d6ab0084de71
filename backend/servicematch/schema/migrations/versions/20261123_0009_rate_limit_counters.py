"""rate_limit_counters: per-client hit counts every web process shares (inbound/ratelimit.py)

Revision ID: 20261123_0009
Revises: 20261123_0008
Create Date: 2026-11-23 13:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261123_0009"
down_revision = "20261123_0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_limit_counters",
        sa.Column("bucket", sa.String(length=300), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("bucket", name=op.f("pk_rate_limit_counters")),
    )
    op.create_index(op.f("ix_rate_limit_counters_expires_at"), "rate_limit_counters", ["expires_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_rate_limit_counters_expires_at"), table_name="rate_limit_counters")
    op.drop_table("rate_limit_counters")
