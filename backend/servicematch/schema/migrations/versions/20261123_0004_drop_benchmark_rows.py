"""drop benchmark_rows: the throughput benchmark now creates and owns its baseline table

Revision ID: 20261123_0004
Revises: 20261121_0003
Create Date: 2026-11-23 12:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261123_0004"
down_revision = "20261121_0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # IF EXISTS: a database migrated and then benchmarked may or may not still hold it.
    op.execute(sa.text("DROP TABLE IF EXISTS benchmark_rows"))


def downgrade() -> None:
    # Recreated as 20261121_0003 made it, so that revision's own downgrade still finds it.
    op.create_table(
        "benchmark_rows",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("request_id", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_benchmark_rows")),
    )
