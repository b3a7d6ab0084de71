"""what each buyer and provider accepts: a minimum quality score and its own duplicate rule

Revision ID: 20261129_0027
Revises: 20261129_0026
Create Date: 2026-11-29 08:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "20261129_0027"
down_revision = "20261129_0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every buyer and provider stored so far keeps taking what it took: no minimum, the site's rule.
    with op.batch_alter_table("buyers") as batch:
        batch.add_column(sa.Column("min_quality", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("duplicate_days", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("duplicate_match", sa.String(length=8), nullable=False, server_default="phone"))
        batch.add_column(sa.Column("duplicate_scope", sa.String(length=8), nullable=False, server_default="service"))
    with op.batch_alter_table("providers") as batch:
        batch.add_column(sa.Column("min_quality", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("providers") as batch:
        batch.drop_column("min_quality")
    with op.batch_alter_table("buyers") as batch:
        batch.drop_column("duplicate_scope")
        batch.drop_column("duplicate_match")
        batch.drop_column("duplicate_days")
        batch.drop_column("min_quality")
