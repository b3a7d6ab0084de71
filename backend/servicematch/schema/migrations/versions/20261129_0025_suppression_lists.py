"""suppression lists: phones and e-mails, plain or hashed, that no buyer (or one buyer) is sold

Revision ID: 20261129_0025
Revises: 20261129_0024
Create Date: 2026-11-29 08:00:00
"""

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision = "20261129_0025"
down_revision = "20261129_0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
