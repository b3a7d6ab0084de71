"""published marketing-partners lists: each version's names, what it kept of the configuration, when

Revision ID: 20261127_0019
Revises: 20261126_0018
Create Date: 2026-11-27 23:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261127_0019"
down_revision = "20261126_0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "partner_list_versions",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("partners", sa.JSON(), nullable=False),
        sa.Column("standing", sa.JSON(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_partner_list_versions")),
    )
    with op.batch_alter_table("partner_list_versions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_partner_list_versions_published_at"), ["published_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("partner_list_versions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_partner_list_versions_published_at"))
    op.drop_table("partner_list_versions")
