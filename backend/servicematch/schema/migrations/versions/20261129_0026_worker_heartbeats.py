"""each worker's last heartbeat, for readiness and metrics

Revision ID: 20261129_0026
Revises: 20261129_0025
Create Date: 2026-11-29 08:00:00
"""

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision = "20261129_0026"
down_revision = "20261129_0025"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
