"""operator console and funnel events: operators, sessions, audit log, events, daily counts

Revision ID: 20261123_0007
Revises: 20261123_0005
Create Date: 2026-11-23 12:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261123_0007"
down_revision = "20261123_0005"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "operators",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("totp_secret", sa.LargeBinary(), nullable=True),
        sa.Column("totp_last_step", sa.BigInteger(), nullable=True),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("password_changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operators")),
        sa.UniqueConstraint("email", name=op.f("uq_operators_email")),
    )
    op.create_table(
        "operator_sessions",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("operator_id", sa.String(length=36), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ip", sa.String(length=45), nullable=True),
        sa.Column("user_agent", sa.String(length=300), nullable=True),
        sa.ForeignKeyConstraint(["operator_id"], ["operators.id"],
                                name=op.f("fk_operator_sessions_operator_id_operators"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operator_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_operator_sessions_token_hash")),
    )
    op.create_index(op.f("ix_operator_sessions_operator_id"), "operator_sessions", ["operator_id"])
    op.create_table(
        "audit_log",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("operator_id", sa.String(length=36), nullable=True),
        sa.Column("operator_email", sa.String(length=254), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("target", sa.String(length=254), nullable=False),
        sa.Column("ip", sa.String(length=45), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    op.create_index(op.f("ix_audit_log_at"), "audit_log", ["at"])
    op.create_index("ix_audit_log_action_target_at", "audit_log", ["action", "target", "at"])
    op.create_index("ix_audit_log_action_ip_at", "audit_log", ["action", "ip", "at"])
    op.create_table(
        "funnel_events",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.Column("route_type", sa.String(length=24), nullable=False),
        sa.Column("vertical", sa.String(length=32), nullable=False),
        sa.Column("service", sa.String(length=64), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("field", sa.String(length=64), nullable=False),
        sa.Column("answer", sa.String(length=200), nullable=False),
        sa.Column("tab_id", sa.String(length=64), nullable=False),
        sa.Column("source", sa.String(length=120), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_funnel_events")),
    )
    op.create_index("ix_funnel_events_at_service", "funnel_events", ["at", "service"])
    op.create_table(
        "funnel_daily",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.Column("vertical", sa.String(length=32), nullable=False),
        sa.Column("service", sa.String(length=64), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("field", sa.String(length=64), nullable=False),
        sa.Column("answer", sa.String(length=200), nullable=False),
        sa.Column("tabs", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_funnel_daily")),
    )
    op.create_index("ix_funnel_daily_day_service", "funnel_daily", ["day", "service"])
    op.create_table(
        "funnel_rolled_up_days",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("rolled_up_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("day", name=op.f("pk_funnel_rolled_up_days")),
    )
    # The console's reads on other packages' tables (declared in console/models.py).
    op.create_index("ix_leads_console_day", "leads", ["created_at", "vertical", "service", "state"])
    op.create_index("ix_deliveries_created_at_status", "deliveries", ["created_at", "status"])
    op.create_index("ix_deliveries_status_created_at", "deliveries", ["status", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_deliveries_status_created_at", table_name="deliveries")
    op.drop_index("ix_deliveries_created_at_status", table_name="deliveries")
    op.drop_index("ix_leads_console_day", table_name="leads")
    op.drop_table("funnel_rolled_up_days")
    op.drop_index("ix_funnel_daily_day_service", table_name="funnel_daily")
    op.drop_table("funnel_daily")
    op.drop_index("ix_funnel_events_at_service", table_name="funnel_events")
    op.drop_table("funnel_events")
    op.drop_index("ix_audit_log_action_ip_at", table_name="audit_log")
    op.drop_index("ix_audit_log_action_target_at", table_name="audit_log")
    op.drop_index(op.f("ix_audit_log_at"), table_name="audit_log")
    op.drop_table("audit_log")
    op.drop_index(op.f("ix_operator_sessions_operator_id"), table_name="operator_sessions")
    op.drop_table("operator_sessions")
    op.drop_table("operators")
