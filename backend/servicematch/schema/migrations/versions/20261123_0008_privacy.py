"""privacy: rights requests, one-time codes, revocations, erasures, opt-outs, retention runs,
and the payload kind of each delivery (lead, receipt, lead.revoked, lead.deleted, lead.corrected)

Revision ID: 20261123_0008
Revises: 20261123_0007
Create Date: 2026-11-23 13:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261123_0008"
down_revision = "20261123_0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "privacy_requests",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("contact_key", sa.String(length=80), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("verified_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.Text(), nullable=True),
        sa.Column("leads_affected", sa.Integer(), nullable=False),
        sa.Column("details", sa.LargeBinary(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_privacy_requests")),
    )
    op.create_index(op.f("ix_privacy_requests_contact_key"), "privacy_requests", ["contact_key"])
    op.create_index(op.f("ix_privacy_requests_closed_at"), "privacy_requests", ["closed_at"])
    op.create_table(
        "privacy_codes",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("request_id", sa.String(length=36), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["request_id"], ["privacy_requests.id"],
                                name=op.f("fk_privacy_codes_request_id_privacy_requests"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_privacy_codes")),
    )
    op.create_index(op.f("ix_privacy_codes_request_id"), "privacy_codes", ["request_id"])
    op.create_index(op.f("ix_privacy_codes_created_at"), "privacy_codes", ["created_at"])
    for table, time_column, extra in (
        ("lead_revocations", "revoked_at", [sa.Column("method", sa.String(length=32), nullable=False),
                                            sa.Column("request_id", sa.String(length=36), nullable=True)]),
        ("lead_erasures", "erased_at", [sa.Column("reason", sa.String(length=32), nullable=False)]),
    ):
        op.create_table(
            table,
            sa.Column("lead_id", sa.String(length=36), nullable=False),
            sa.Column(time_column, sa.DateTime(timezone=True), nullable=False),
            *extra,
            sa.ForeignKeyConstraint(["lead_id"], ["leads.id"], name=op.f(f"fk_{table}_lead_id_leads"),
                                    ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("lead_id", name=op.f(f"pk_{table}")),
        )
    op.create_table(
        "contact_suppressions",
        sa.Column("contact_key", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("request_id", sa.String(length=36), nullable=True),
        sa.PrimaryKeyConstraint("contact_key", name=op.f("pk_contact_suppressions")),
    )
    op.create_table(
        "privacy_used_links",
        sa.Column("link_id", sa.String(length=36), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("link_id", name=op.f("pk_privacy_used_links")),
    )
    op.create_table(
        "retention_runs",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("ran_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("counts", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_retention_runs")),
    )
    op.create_index(op.f("ix_retention_runs_ran_at"), "retention_runs", ["ran_at"])
    with op.batch_alter_table("deliveries") as batch_op:
        batch_op.add_column(sa.Column("payload_kind", sa.String(length=24), nullable=False,
                                      server_default="lead"))


def downgrade() -> None:
    with op.batch_alter_table("deliveries") as batch_op:
        batch_op.drop_column("payload_kind")
    op.drop_index(op.f("ix_retention_runs_ran_at"), table_name="retention_runs")
    op.drop_table("retention_runs")
    op.drop_table("privacy_used_links")
    op.drop_table("contact_suppressions")
    op.drop_table("lead_erasures")
    op.drop_table("lead_revocations")
    op.drop_index(op.f("ix_privacy_codes_created_at"), table_name="privacy_codes")
    op.drop_index(op.f("ix_privacy_codes_request_id"), table_name="privacy_codes")
    op.drop_table("privacy_codes")
    op.drop_index(op.f("ix_privacy_requests_closed_at"), table_name="privacy_requests")
    op.drop_index(op.f("ix_privacy_requests_contact_key"), table_name="privacy_requests")
    op.drop_table("privacy_requests")
