"""each worker's last heartbeat, for readiness and metrics

Revision ID: 20261129_0026
Revises: 20261129_0025
Create Date: 2026-11-29 08:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261129_0026"
down_revision = "20261129_0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # One row per running worker (servicematch.ops.heartbeat), written every few seconds.
    op.create_table(
        "worker_heartbeats",
        sa.Column("worker_id", sa.String(length=64), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("beat_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("worker_id", name=op.f("pk_worker_heartbeats")),
    )


def downgrade() -> None:
    op.drop_table("worker_heartbeats")
