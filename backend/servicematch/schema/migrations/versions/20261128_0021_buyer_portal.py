"""the buyer portal: buyers' people, sessions, links, API keys, returns and feedback; what a buyer
may set itself (pause, bid floor, return terms, locked fields, a rotated secret's overlap)

Revision ID: 20261128_0021
Revises: 20261128_0020
Create Date: 2026-11-28 12:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261128_0021"
down_revision = "20261128_0020"
branch_labels = None
depends_on = None

def _buyer_columns():
    return [
        sa.Column("previous_secret", sa.String(length=200), nullable=True),
        sa.Column("previous_secret_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("bid_floor_cents", sa.Integer(), nullable=True),
        sa.Column("return_window_days", sa.Integer(), nullable=False, server_default="7"),
        sa.Column("max_return_percent", sa.Integer(), nullable=True, server_default="15"),
        sa.Column("locked_fields", sa.JSON(), nullable=False, server_default="[]"),
    ]


def _session_columns():
    return [
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ip", sa.String(length=45), nullable=True),
        sa.Column("user_agent", sa.String(length=300), nullable=True),
    ]


def upgrade() -> None:
    with op.batch_alter_table("buyers") as batch:
        for column in _buyer_columns():
            batch.add_column(column)
    with op.batch_alter_table("sales") as batch:
        batch.drop_index("ix_sales_buyer_id")
        batch.create_index("ix_sales_buyer_created", ["buyer_id", "created_at"])

    op.create_table(
        "buyer_accounts",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("buyer_id", sa.String(length=36), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.Column("totp_secret", sa.LargeBinary(), nullable=True),
        sa.Column("totp_pending", sa.LargeBinary(), nullable=True),
        sa.Column("totp_last_step", sa.BigInteger(), nullable=True),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("invited_by", sa.String(length=254), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("password_changed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["buyer_id"], ["buyers.id"], name=op.f("fk_buyer_accounts_buyer_id_buyers"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_buyer_accounts")),
        sa.UniqueConstraint("email", name=op.f("uq_buyer_accounts_email")),
    )
    op.create_index("ix_buyer_accounts_buyer_id", "buyer_accounts", ["buyer_id"])

    op.create_table(
        "buyer_sessions",
        *_session_columns(),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["buyer_accounts.id"],
                                name=op.f("fk_buyer_sessions_account_id_buyer_accounts"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_buyer_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_buyer_sessions_token_hash")),
    )
    op.create_index("ix_buyer_sessions_account_id", "buyer_sessions", ["account_id"])

    op.create_table(
        "buyer_tokens",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["buyer_accounts.id"],
                                name=op.f("fk_buyer_tokens_account_id_buyer_accounts"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_buyer_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_buyer_tokens_token_hash")),
    )
    op.create_index("ix_buyer_tokens_account_id", "buyer_tokens", ["account_id"])

    op.create_table(
        "buyer_api_keys",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("buyer_id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("created_by", sa.String(length=254), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["buyer_id"], ["buyers.id"], name=op.f("fk_buyer_api_keys_buyer_id_buyers"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_buyer_api_keys")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_buyer_api_keys_key_hash")),
    )
    op.create_index("ix_buyer_api_keys_buyer_id", "buyer_api_keys", ["buyer_id"])

    op.create_table(
        "lead_returns",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("sale_id", sa.String(length=36), nullable=False),
        sa.Column("buyer_id", sa.String(length=36), nullable=False),
        sa.Column("lead_id", sa.String(length=36), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("amount_cents", sa.Integer(), nullable=False),
        sa.Column("requested_by", sa.String(length=254), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_by", sa.String(length=254), nullable=True),
        sa.Column("decision_note", sa.Text(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["sale_id"], ["sales.id"], name=op.f("fk_lead_returns_sale_id_sales"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["buyer_id"], ["buyers.id"], name=op.f("fk_lead_returns_buyer_id_buyers"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lead_returns")),
        sa.UniqueConstraint("sale_id", name=op.f("uq_lead_returns_sale_id")),
    )
    op.create_index("ix_lead_returns_lead_id", "lead_returns", ["lead_id"])
    op.create_index("ix_lead_returns_buyer_created", "lead_returns", ["buyer_id", "created_at"])
    op.create_index("ix_lead_returns_status_created", "lead_returns", ["status", "created_at"])

    op.create_table(
        "lead_feedback",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("sale_id", sa.String(length=36), nullable=False),
        sa.Column("buyer_id", sa.String(length=36), nullable=False),
        sa.Column("lead_id", sa.String(length=36), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("given_by", sa.String(length=254), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["sale_id"], ["sales.id"], name=op.f("fk_lead_feedback_sale_id_sales"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["buyer_id"], ["buyers.id"], name=op.f("fk_lead_feedback_buyer_id_buyers"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lead_feedback")),
    )
    op.create_index("ix_lead_feedback_sale_created", "lead_feedback", ["sale_id", "created_at"])
    op.create_index("ix_lead_feedback_buyer_created", "lead_feedback", ["buyer_id", "created_at"])


def downgrade() -> None:
    for table in ("lead_feedback", "lead_returns", "buyer_api_keys", "buyer_tokens", "buyer_sessions",
                  "buyer_accounts"):
        op.drop_table(table)
    with op.batch_alter_table("sales") as batch:
        batch.drop_index("ix_sales_buyer_created")
        batch.create_index("ix_sales_buyer_id", ["buyer_id"])
    with op.batch_alter_table("buyers") as batch:
        for column in reversed(_buyer_columns()):
            batch.drop_column(column.name)
