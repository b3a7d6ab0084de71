"""providers: the portal's profile (mode, auto-accept, hours, weekly budget, who paused it, contact
name and phone, licence, when an operator checked the licence)

Revision ID: 20261126_0016
Revises: 20261125_0013
Create Date: 2026-11-26 09:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261126_0016"
down_revision = "20261126_0015"
branch_labels = None
depends_on = None

COLUMNS = [
    sa.Column("mode", sa.String(length=16), nullable=False, server_default="direct"),
    sa.Column("auto_accept", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("hours", sa.String(length=120), nullable=True),
    sa.Column("weekly_budget_cents", sa.Integer(), nullable=True),
    sa.Column("paused_by", sa.String(length=16), nullable=True),
    sa.Column("contact_name", sa.String(length=200), nullable=True),
    sa.Column("phone", sa.String(length=10), nullable=True),
    sa.Column("licence_number", sa.String(length=40), nullable=True),
    sa.Column("licence_state", sa.String(length=2), nullable=True),
    sa.Column("verified_at", sa.DateTime(timezone=True), nullable=True),
]


def upgrade() -> None:
    with op.batch_alter_table("providers") as batch:
        for column in COLUMNS:
            batch.add_column(column)


def downgrade() -> None:
    with op.batch_alter_table("providers") as batch:
        for column in reversed(COLUMNS):
            batch.drop_column(column.name)
