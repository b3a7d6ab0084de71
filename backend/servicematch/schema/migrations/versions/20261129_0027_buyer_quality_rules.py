"""what each buyer and provider accepts: a minimum quality score and its own duplicate rule

Revision ID: 20261129_0027
Revises: 20261129_0026
Create Date: 2026-11-29 08:00:00
"""

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision = "20261129_0027"
down_revision = "20261129_0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
