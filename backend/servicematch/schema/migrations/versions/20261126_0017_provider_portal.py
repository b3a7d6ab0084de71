"""provider portal: applications to join, provider accounts, their sessions, one-time link tokens

Revision ID: 20261126_0017
Revises: 20261126_0016
Create Date: 2026-11-26 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261126_0017"
down_revision = "20261126_0016"
branch_labels = None
depends_on = None


def _times(*names: str, nullable: bool = True) -> list[sa.Column]:
    return [sa.Column(name, sa.DateTime(timezone=True), nullable=nullable) for name in names]


def upgrade() -> None:
    op.create_table(
        "provider_applications",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("business_name", sa.String(length=200), nullable=False),
        sa.Column("contact_name", sa.String(length=200), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("phone", sa.String(length=10), nullable=False),
        sa.Column("services", sa.JSON(), nullable=False),
        sa.Column("zips", sa.JSON(), nullable=False),
        sa.Column("radius_miles", sa.Float(), nullable=True),
        sa.Column("states", sa.JSON(), nullable=False),
        sa.Column("licence_number", sa.String(length=40), nullable=True),
        sa.Column("licence_state", sa.String(length=2), nullable=True),
        *_times("created_at", nullable=False), *_times("confirmed_at", "decided_at"),
        sa.Column("decided_by", sa.String(length=254), nullable=True),
        sa.Column("reject_reason", sa.Text(), nullable=True),
        sa.Column("provider_id", sa.String(length=36), nullable=True),
        sa.ForeignKeyConstraint(["provider_id"], ["providers.id"],
                                name=op.f("fk_provider_applications_provider_id_providers"), ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_provider_applications")),
    )
    op.create_index("ix_provider_applications_status_created_at", "provider_applications", ["status", "created_at"])
    op.create_table(
        "provider_accounts",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("provider_id", sa.String(length=36), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.Column("totp_secret", sa.LargeBinary(), nullable=True),
        sa.Column("totp_pending", sa.LargeBinary(), nullable=True),
        sa.Column("totp_last_step", sa.BigInteger(), nullable=True),
        sa.Column("active", sa.Boolean(), nullable=False),
        *_times("created_at", nullable=False), *_times("password_changed_at"),
        sa.ForeignKeyConstraint(["provider_id"], ["providers.id"],
                                name=op.f("fk_provider_accounts_provider_id_providers"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_provider_accounts")),
        sa.UniqueConstraint("email", name=op.f("uq_provider_accounts_email")),
    )
    op.create_index(op.f("ix_provider_accounts_provider_id"), "provider_accounts", ["provider_id"])
    op.create_table(
        "provider_sessions",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        *_times("created_at", "last_seen_at", "expires_at", nullable=False), *_times("ended_at"),
        sa.Column("ip", sa.String(length=45), nullable=True),
        sa.Column("user_agent", sa.String(length=300), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["provider_accounts.id"],
                                name=op.f("fk_provider_sessions_account_id_provider_accounts"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_provider_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_provider_sessions_token_hash")),
    )
    op.create_index(op.f("ix_provider_sessions_account_id"), "provider_sessions", ["account_id"])
    op.create_table(
        "portal_tokens",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=True),
        sa.Column("application_id", sa.String(length=36), nullable=True),
        *_times("created_at", "expires_at", nullable=False), *_times("used_at"),
        sa.ForeignKeyConstraint(["account_id"], ["provider_accounts.id"],
                                name=op.f("fk_portal_tokens_account_id_provider_accounts"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["application_id"], ["provider_applications.id"],
                                name=op.f("fk_portal_tokens_application_id_provider_applications"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_portal_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_portal_tokens_token_hash")),
    )
    op.create_index(op.f("ix_portal_tokens_account_id"), "portal_tokens", ["account_id"])
    op.create_index(op.f("ix_portal_tokens_application_id"), "portal_tokens", ["application_id"])


def downgrade() -> None:
    for table in ("portal_tokens", "provider_sessions", "provider_accounts", "provider_applications"):
        op.drop_table(table)
