"""Migrations build the same schema on SQLite and PostgreSQL, and match the models."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from servicematch.db.base import Base, import_all_models


def test_migrations_create_every_table(raw_engine):
    import_all_models()
    tables = set(inspect(raw_engine).get_table_names())
    assert set(Base.metadata.tables) <= tables
    assert "alembic_version" in tables


def test_models_and_migrations_agree(raw_engine):
    """A model change without a migration shows up here as a difference."""
    import_all_models()
    with raw_engine.connect() as connection:
        context = MigrationContext.configure(connection)
        differences = compare_metadata(context, Base.metadata)
    assert differences == []
