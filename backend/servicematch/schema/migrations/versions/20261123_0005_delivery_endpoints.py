"""delivery endpoints: the circuit breaker state of each receiver, shared by every worker

Revision ID: 20261123_0005
Revises: 20261123_0004
Create Date: 2026-11-23 12:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261123_0005"
down_revision = "20261123_0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "delivery_endpoints",
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("consecutive_failures", sa.Integer(), nullable=False),
        sa.Column("paused_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_delivery_endpoints")),
    )


def downgrade() -> None:
    op.drop_table("delivery_endpoints")
