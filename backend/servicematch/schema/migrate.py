"""Run Alembic migrations from code, without an alembic.ini on disk."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from servicematch.db.session import prepare_sqlite_file

MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the database at `database_url` up to `revision`."""
    if database_url.startswith("sqlite:///"):
        prepare_sqlite_file(database_url.removeprefix("sqlite:///"))
    command.upgrade(alembic_config(database_url), revision)
