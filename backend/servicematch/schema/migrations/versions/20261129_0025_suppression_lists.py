"""suppression lists: phones and e-mails, plain or hashed, that no buyer (or one buyer) is sold

Revision ID: 20261129_0025
Revises: 20261129_0024
Create Date: 2026-11-29 08:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261129_0025"
down_revision = "20261129_0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "suppression_lists",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("buyer_id", sa.String(length=36), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(length=254), nullable=False),
        sa.Column("entry_count", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["buyer_id"], ["buyers.id"], name=op.f("fk_suppression_lists_buyer_id_buyers")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_suppression_lists")),
        sa.UniqueConstraint("name", name=op.f("uq_suppression_lists_name")),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_suppression_lists_buyer_id", "suppression_lists", ["buyer_id"])
    # The primary key is the lookup (algorithm, digest, then list); SQLite keeps no rowid beside it.
    op.create_table(
        "suppression_entries",
        sa.Column("algorithm", sa.String(length=6), nullable=False),
        sa.Column("digest", sa.LargeBinary(length=32), nullable=False),
        sa.Column("list_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("algorithm", "digest", "list_id", name=op.f("pk_suppression_entries")),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("suppression_entries")
    op.drop_index("ix_suppression_lists_buyer_id", table_name="suppression_lists")
    op.drop_table("suppression_lists")
