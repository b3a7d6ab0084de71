"""leads.source: where a lead came from, derived by the database from click, and in the console's
per-day index

PostgreSQL stores the column (the table is rewritten once); SQLite, which cannot add a stored
column to a table, computes it on read and keeps it in the index.

Revision ID: 20261124_0011
Revises: 20261123_0010
Create Date: 2026-11-24 03:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261124_0011"
down_revision = "20261123_0010"
branch_labels = None
depends_on = None

DAY_COLUMNS = ["created_at", "vertical", "service", "state"]


def _source() -> sa.ColumnElement:
    """subid1's value, else "subid2:<value>", else "fbclid" when present, else "direct"."""
    clicked = {key: sa.func.coalesce(sa.column("click", sa.JSON)[key].as_string(), sa.literal(""))
               for key in ("subid1", "subid2", "fbclid")}
    return sa.case((clicked["subid1"] != "", clicked["subid1"]),
                   (clicked["subid2"] != "", sa.literal("subid2:") + clicked["subid2"]),
                   (clicked["fbclid"] != "", sa.literal("fbclid")), else_=sa.literal("direct"))


def upgrade() -> None:
    stored = op.get_bind().dialect.name != "sqlite"
    op.add_column("leads", sa.Column("source", sa.String(length=120), sa.Computed(_source(), persisted=stored)))
    op.drop_index("ix_leads_console_day", table_name="leads")
    op.create_index("ix_leads_console_day", "leads", [*DAY_COLUMNS, "source"])


def downgrade() -> None:
    op.drop_index("ix_leads_console_day", table_name="leads")
    op.create_index("ix_leads_console_day", "leads", DAY_COLUMNS)
    op.drop_column("leads", "source")
