"""Migrations build the same schema on SQLite and PostgreSQL, and match the models."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from servicematch.db.migrate import upgrade
from servicematch.db.registry import metadata


def test_migrations_create_every_table(raw_engine):
    tables = set(inspect(raw_engine).get_table_names())
    assert set(metadata.tables) <= tables
    assert "alembic_version" in tables


def test_models_and_migrations_agree(raw_engine):
    """A model change without a migration shows up here as a difference."""
    with raw_engine.connect() as connection:
        context = MigrationContext.configure(connection)
        differences = compare_metadata(context, metadata)
    assert differences == []


def test_the_benchmark_table_is_not_part_of_the_schema(raw_engine):
    assert "benchmark_rows" not in set(inspect(raw_engine).get_table_names())


def test_a_database_that_still_holds_the_benchmark_table_loses_it(database_url, tmp_path):
    """20261123_0004 drops benchmark_rows whether or not a benchmark left it behind."""
    if not database_url.startswith("sqlite"):
        pytest.skip("the shared PostgreSQL database stays at head for the other tests")
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "20261121_0003")
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO benchmark_rows (request_id, created_at) VALUES ('r', '2026-11-21')"))
        upgrade(url)
        assert "benchmark_rows" not in set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
