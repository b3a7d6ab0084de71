"""Migrations build the same schema on SQLite and PostgreSQL, and match the models."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError

from servicematch.kernel.references import parse_reference
from servicematch.schema.migrate import upgrade
from servicematch.schema.registry import metadata


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


def test_leads_stored_before_references_each_get_one_of_their_own(earlier_database):
    """20261126_0014 gives every stored lead a reference, unique, in the form intake makes them."""
    upgrade(earlier_database, "20261125_0013")
    engine = create_engine(earlier_database)
    try:
        with engine.begin() as connection:
            for n in range(5):
                connection.execute(text(
                    "INSERT INTO leads (id, request_id, request_hash, flow, vertical, service, category, cid, "
                    "is_test, is_duplicate, do_not_sell, personal_data, answers, click, created_at) VALUES "
                    "(:id, :id, 'h', 'form', 'services', 'hvac', 'HVAC', 640, false, false, false, :data, '{}', "
                    "'{}', '2026-11-20 10:00:00+00')"), {"id": f"lead-{n}", "data": b"x"})
        upgrade(earlier_database)
        with engine.connect() as connection:
            references = dict(connection.execute(text("SELECT id, reference FROM leads")).all())
        assert len(set(references.values())) == 5
        assert all(parse_reference(reference) == reference for reference in references.values())
        with engine.begin() as connection, pytest.raises(IntegrityError):
            connection.execute(text("UPDATE leads SET reference = :taken WHERE id = 'lead-1'"),
                               {"taken": references["lead-0"]})
    finally:
        engine.dispose()
