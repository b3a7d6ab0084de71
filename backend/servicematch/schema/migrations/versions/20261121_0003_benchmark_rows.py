"""benchmark rows: the baseline table of the throughput benchmark

Revision ID: 20261121_0003
Revises: 20261121_0002
Create Date: 2026-11-21 00:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261121_0003"
down_revision = "20261121_0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "benchmark_rows",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_benchmark_rows")),
    )


def downgrade() -> None:
    op.drop_table("benchmark_rows")
