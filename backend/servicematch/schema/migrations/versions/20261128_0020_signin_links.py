"""e-mailed sign-in links for console and portal accounts locked by failed sign-ins

Revision ID: 20261128_0020
Revises: 20261127_0019
Create Date: 2026-11-28 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261128_0020"
down_revision = "20261127_0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "signin_links",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("surface", sa.String(length=16), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signin_links")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_signin_links_token_hash")),
    )
    op.create_index("ix_signin_links_surface_account_created", "signin_links",
                    ["surface", "account_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_signin_links_surface_account_created", table_name="signin_links")
    op.drop_table("signin_links")
