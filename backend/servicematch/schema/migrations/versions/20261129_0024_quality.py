"""the quality gate: each lead's score, its reason codes and whether it is held for review; what intake
keeps for it (form signals, an address hash) and what TrustedForm said; recent leads by client address

Revision ID: 20261129_0024
Revises: 20261128_0023
Create Date: 2026-11-29 08:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261129_0024"
down_revision = "20261128_0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("leads") as batch:
        batch.add_column(sa.Column("quality_score", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("quality_reasons", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("quality_status", sa.String(length=16), nullable=True))
        batch.create_index("ix_leads_quality_status", ["quality_status"])
        batch.add_column(sa.Column("quality_signals", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("quality_proof", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("address_hash", sa.String(length=64), nullable=True))
        batch.create_index("ix_leads_address_hash", ["address_hash"])
    with op.batch_alter_table("consent_records") as batch:
        batch.create_index("ix_consent_records_ip_address_consented_at", ["ip_address", "consented_at"])
    with op.batch_alter_table("funnel_events") as batch:
        batch.create_index("ix_funnel_events_tab_id_at", ["tab_id", "at"])


def downgrade() -> None:
    with op.batch_alter_table("funnel_events") as batch:
        batch.drop_index("ix_funnel_events_tab_id_at")
    with op.batch_alter_table("consent_records") as batch:
        batch.drop_index("ix_consent_records_ip_address_consented_at")
    # Not batch mode: on SQLite it would rebuild leads from reflection, which loses the expression
    # of the generated source column; SQLite drops an unindexed column in place.
    op.drop_index("ix_leads_address_hash", table_name="leads")
    op.drop_index("ix_leads_quality_status", table_name="leads")
    for column in ("address_hash", "quality_proof", "quality_signals", "quality_status", "quality_reasons",
                   "quality_score"):
        op.drop_column("leads", column)
