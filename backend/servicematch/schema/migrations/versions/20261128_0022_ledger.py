"""one ledger for buyers and providers: accounts with terms, entries, payments, Stripe events,
invoices and their lines, the invoice counter, reconciliation runs

Revision ID: 20261128_0022
Revises: 20261128_0021
Create Date: 2026-11-28 14:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261128_0022"
down_revision = "20261128_0021"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "ledger_accounts",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("owner_id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("terms", sa.String(length=16), nullable=False),
        sa.Column("credit_limit_cents", sa.BigInteger(), nullable=True),
        sa.Column("net_days", sa.Integer(), nullable=False),
        sa.Column("balance_cents", sa.BigInteger(), nullable=False),
        sa.Column("hold_reason", sa.String(length=16), nullable=True),
        sa.Column("held_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("hold_notified_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("topup_threshold_cents", sa.BigInteger(), nullable=True),
        sa.Column("topup_amount_cents", sa.BigInteger(), nullable=True),
        sa.Column("stripe_customer_id", sa.String(length=100), nullable=True),
        sa.Column("stripe_payment_method_id", sa.String(length=100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_accounts")),
        sa.UniqueConstraint("kind", "owner_id", name="uq_ledger_accounts_kind_owner_id"),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("cause", sa.String(length=16), nullable=False),
        sa.Column("cause_id", sa.String(length=100), nullable=False),
        sa.Column("lead_id", sa.String(length=36), nullable=True),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("vertical", sa.String(length=64), nullable=True),
        sa.Column("service", sa.String(length=64), nullable=True),
        sa.Column("state", sa.String(length=2), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created_by", sa.String(length=254), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["ledger_accounts.id"],
                                name=op.f("fk_ledger_entries_account_id_ledger_accounts"), ondelete="RESTRICT"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entries")),
        sa.UniqueConstraint("account_id", "cause", "cause_id", "kind", name="uq_ledger_entries_account_cause"),
    )
    op.create_index("ix_ledger_entries_account_created", "ledger_entries", ["account_id", "created_at"])
    op.create_index("ix_ledger_entries_created", "ledger_entries", ["created_at"])
    op.create_index("ix_ledger_entries_cause", "ledger_entries", ["cause", "cause_id"])
    op.create_index("ix_ledger_entries_lead_id", "ledger_entries", ["lead_id"])
    op.create_table(
        "ledger_payments",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("stripe_checkout_id", sa.String(length=255), nullable=True),
        sa.Column("stripe_payment_intent_id", sa.String(length=255), nullable=True),
        sa.Column("automatic", sa.Boolean(), nullable=False),
        sa.Column("invoice_id", sa.String(length=36), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("recorded_by", sa.String(length=254), nullable=False),
        sa.Column("failure", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["ledger_accounts.id"],
                                name=op.f("fk_ledger_payments_account_id_ledger_accounts"), ondelete="RESTRICT"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_payments")),
        sa.UniqueConstraint("stripe_checkout_id", name=op.f("uq_ledger_payments_stripe_checkout_id")),
        sa.UniqueConstraint("stripe_payment_intent_id", name=op.f("uq_ledger_payments_stripe_payment_intent_id")),
    )
    op.create_index("ix_ledger_payments_account_created", "ledger_payments", ["account_id", "created_at"])
    op.create_table(
        "ledger_stripe_events",
        sa.Column("id", sa.String(length=255), nullable=False),
        sa.Column("type", sa.String(length=100), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_stripe_events")),
    )
    op.create_table(
        "ledger_invoices",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.String(length=36), nullable=False),
        sa.Column("month", sa.String(length=7), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("opening_cents", sa.BigInteger(), nullable=False),
        sa.Column("charges_cents", sa.BigInteger(), nullable=False),
        sa.Column("credits_cents", sa.BigInteger(), nullable=False),
        sa.Column("payments_cents", sa.BigInteger(), nullable=False),
        sa.Column("closing_cents", sa.BigInteger(), nullable=False),
        sa.Column("due_cents", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("paid_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("emailed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("pdf", sa.LargeBinary(), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["ledger_accounts.id"],
                                name=op.f("fk_ledger_invoices_account_id_ledger_accounts"), ondelete="RESTRICT"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_invoices")),
        sa.UniqueConstraint("number", name=op.f("uq_ledger_invoices_number")),
        sa.UniqueConstraint("account_id", "month", name="uq_ledger_invoices_account_month"),
    )
    op.create_index("ix_ledger_invoices_account_id", "ledger_invoices", ["account_id"])
    op.create_index("ix_ledger_invoices_status_due", "ledger_invoices", ["status", "due_at"])
    op.create_table(
        "ledger_invoice_lines",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("invoice_id", sa.String(length=36), nullable=False),
        sa.Column("entry_id", sa.BigInteger(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("reference", sa.String(length=16), nullable=True),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["invoice_id"], ["ledger_invoices.id"],
                                name=op.f("fk_ledger_invoice_lines_invoice_id_ledger_invoices"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_invoice_lines")),
    )
    op.create_index("ix_ledger_invoice_lines_invoice_id", "ledger_invoice_lines", ["invoice_id"])
    op.create_table(
        "ledger_invoice_counter",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("last_number", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_invoice_counter")),
    )
    op.create_table(
        "ledger_checks",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.Column("accounts", sa.Integer(), nullable=False),
        sa.Column("entries", sa.BigInteger(), nullable=False),
        sa.Column("problems", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_checks")),
    )


def downgrade() -> None:
    for table in ("ledger_checks", "ledger_invoice_counter", "ledger_invoice_lines", "ledger_invoices",
                  "ledger_stripe_events", "ledger_payments", "ledger_entries", "ledger_accounts"):
        op.drop_table(table)
