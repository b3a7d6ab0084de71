"""leads.reference: the short reference a consumer is shown and quotes, unique; every stored lead
gets one here

Revision ID: 20261126_0014
Revises: 20261125_0013
Create Date: 2026-11-26 01:00:00
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "20261126_0014"
down_revision = "20261125_0013"
branch_labels = None
depends_on = None

# Crockford's base32, as servicematch.kernel.references makes them (a migration keeps its own copy:
# it must do tomorrow what it does today, whatever the application's code becomes).
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BATCH = 1000


def _reference() -> str:
    value = secrets.randbits(40)
    return "".join(ALPHABET[(value >> shift) & 31] for shift in range(35, -1, -5))


def _backfill(connection, *, missing: sa.ColumnElement) -> None:
    """A reference for each lead stored before this revision, unique among them all."""
    leads = sa.table("leads", sa.column("id", sa.String), sa.column("reference", sa.String))
    ids = [row.id for row in connection.execute(sa.select(leads.c.id).where(missing))]
    given: set[str] = set()
    for start in range(0, len(ids), BATCH):
        rows = []
        for lead_id in ids[start:start + BATCH]:
            reference = _reference()
            while reference in given:
                reference = _reference()
            given.add(reference)
            rows.append({"lead_id": lead_id, "new_reference": reference})
        connection.execute(leads.update().where(leads.c.id == sa.bindparam("lead_id"))
                           .values(reference=sa.bindparam("new_reference")), rows)


def upgrade() -> None:
    connection = op.get_bind()
    if connection.dialect.name == "sqlite":
        # SQLite cannot make a column NOT NULL after adding it (and a batch copy of this table
        # fails on its computed column), so the column comes NOT NULL with an empty default, which
        # every lead below then replaces; the application always gives the value itself.
        op.add_column("leads", sa.Column("reference", sa.String(length=8), nullable=False, server_default=""))
        _backfill(connection, missing=sa.column("reference") == "")
    else:
        op.add_column("leads", sa.Column("reference", sa.String(length=8), nullable=True))
        _backfill(connection, missing=sa.column("reference").is_(None))
        op.alter_column("leads", "reference", existing_type=sa.String(length=8), nullable=False)
    op.create_index("ix_leads_reference", "leads", ["reference"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_leads_reference", table_name="leads")
    op.drop_column("leads", "reference")
