"""provider offers, the providers' ledger, credit requests and reviews; providers get a lead price,
the exclusive-leads opt-in and a monthly credit cap

Revision ID: 20261126_0018
Revises: 20261126_0017
Create Date: 2026-11-26 11:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261126_0018"
down_revision = "20261126_0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "provider_offers",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("lead_id", sa.String(length=36), nullable=False),
        sa.Column("provider_id", sa.String(length=36), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("exclusive", sa.Boolean(), nullable=False),
        sa.Column("price_cents", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("auto_accepted", sa.Boolean(), nullable=False),
        sa.Column("review_requested_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["lead_id"],
            ["leads.id"],
            name=op.f("fk_provider_offers_lead_id_leads"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["provider_id"],
            ["providers.id"],
            name=op.f("fk_provider_offers_provider_id_providers"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_provider_offers")),
        sa.UniqueConstraint(
            "lead_id", "provider_id", name="uq_provider_offers_lead_id_provider_id"
        ),
    )
    with op.batch_alter_table("provider_offers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_provider_offers_lead_id"), ["lead_id"], unique=False)
        batch_op.create_index(
            "ix_provider_offers_provider_created", ["provider_id", "created_at"], unique=False
        )
        batch_op.create_index(
            "ix_provider_offers_provider_status_created",
            ["provider_id", "status", "created_at"],
            unique=False,
        )
        batch_op.create_index(
            "ix_provider_offers_status_expires", ["status", "expires_at"], unique=False
        )

    op.create_table(
        "credit_requests",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("provider_id", sa.String(length=36), nullable=False),
        sa.Column("offer_id", sa.String(length=36), nullable=True),
        sa.Column("lead_id", sa.String(length=36), nullable=True),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("amount_cents", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_by", sa.String(length=254), nullable=True),
        sa.Column("decision_note", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["lead_id"],
            ["leads.id"],
            name=op.f("fk_credit_requests_lead_id_leads"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["offer_id"],
            ["provider_offers.id"],
            name=op.f("fk_credit_requests_offer_id_provider_offers"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["provider_id"],
            ["providers.id"],
            name=op.f("fk_credit_requests_provider_id_providers"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_credit_requests")),
        sa.UniqueConstraint("offer_id", name="uq_credit_requests_offer_id"),
    )
    with op.batch_alter_table("credit_requests", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_credit_requests_lead_id"), ["lead_id"], unique=False)
        batch_op.create_index(
            "ix_credit_requests_provider_created_at", ["provider_id", "created_at"], unique=False
        )
        batch_op.create_index(
            "ix_credit_requests_status_created_at", ["status", "created_at"], unique=False
        )

    op.create_table(
        "provider_ledger",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("provider_id", sa.String(length=36), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("amount_cents", sa.Integer(), nullable=False),
        sa.Column("lead_id", sa.String(length=36), nullable=True),
        sa.Column("offer_id", sa.String(length=36), nullable=True),
        sa.Column("credit_request_id", sa.String(length=36), nullable=True),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("vertical", sa.String(length=64), nullable=True),
        sa.Column("service", sa.String(length=64), nullable=True),
        sa.Column("state", sa.String(length=2), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["lead_id"],
            ["leads.id"],
            name=op.f("fk_provider_ledger_lead_id_leads"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["offer_id"],
            ["provider_offers.id"],
            name=op.f("fk_provider_ledger_offer_id_provider_offers"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["provider_id"],
            ["providers.id"],
            name=op.f("fk_provider_ledger_provider_id_providers"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_provider_ledger")),
        sa.UniqueConstraint("credit_request_id", name="uq_provider_ledger_credit_request_id"),
        sa.UniqueConstraint("offer_id", "kind", name="uq_provider_ledger_offer_id_kind"),
    )
    with op.batch_alter_table("provider_ledger", schema=None) as batch_op:
        batch_op.create_index("ix_provider_ledger_created", ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_provider_ledger_lead_id"), ["lead_id"], unique=False)
        batch_op.create_index(
            "ix_provider_ledger_provider_created", ["provider_id", "created_at"], unique=False
        )

    op.create_table(
        "provider_reviews",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("provider_id", sa.String(length=36), nullable=False),
        sa.Column("offer_id", sa.String(length=36), nullable=True),
        sa.Column("stars", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("city", sa.String(length=100), nullable=True),
        sa.Column("state", sa.String(length=2), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hidden_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("hidden_by", sa.String(length=254), nullable=True),
        sa.ForeignKeyConstraint(
            ["offer_id"],
            ["provider_offers.id"],
            name=op.f("fk_provider_reviews_offer_id_provider_offers"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["provider_id"],
            ["providers.id"],
            name=op.f("fk_provider_reviews_provider_id_providers"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_provider_reviews")),
        sa.UniqueConstraint("offer_id", name="uq_provider_reviews_offer_id"),
    )
    with op.batch_alter_table("provider_reviews", schema=None) as batch_op:
        batch_op.create_index(
            "ix_provider_reviews_provider_created_at", ["provider_id", "created_at"], unique=False
        )

    with op.batch_alter_table("providers", schema=None) as batch_op:
        batch_op.add_column(sa.Column("lead_price_cents", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("exclusive_leads", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(
            sa.Column("credit_cap_percent", sa.Integer(), server_default="20", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("providers", schema=None) as batch_op:
        batch_op.drop_column("credit_cap_percent")
        batch_op.drop_column("exclusive_leads")
        batch_op.drop_column("lead_price_cents")

    with op.batch_alter_table("provider_reviews", schema=None) as batch_op:
        batch_op.drop_index("ix_provider_reviews_provider_created_at")

    op.drop_table("provider_reviews")
    with op.batch_alter_table("provider_ledger", schema=None) as batch_op:
        batch_op.drop_index("ix_provider_ledger_provider_created")
        batch_op.drop_index(batch_op.f("ix_provider_ledger_lead_id"))
        batch_op.drop_index("ix_provider_ledger_created")

    op.drop_table("provider_ledger")
    with op.batch_alter_table("credit_requests", schema=None) as batch_op:
        batch_op.drop_index("ix_credit_requests_status_created_at")
        batch_op.drop_index("ix_credit_requests_provider_created_at")
        batch_op.drop_index(batch_op.f("ix_credit_requests_lead_id"))

    op.drop_table("credit_requests")
    with op.batch_alter_table("provider_offers", schema=None) as batch_op:
        batch_op.drop_index("ix_provider_offers_status_expires")
        batch_op.drop_index("ix_provider_offers_provider_status_created")
        batch_op.drop_index("ix_provider_offers_provider_created")
        batch_op.drop_index(batch_op.f("ix_provider_offers_lead_id"))

    op.drop_table("provider_offers")
