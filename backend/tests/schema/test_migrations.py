"""Migrations build the same schema on SQLite and PostgreSQL, and match the models."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import MetaData, Table, create_engine, inspect, text
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


def _insert_filled(connection, table_name: str, **values) -> None:
    """Insert a row giving every required column without a default a value of its type, so a test
    of one migration need not spell out what earlier migrations made required."""
    table = Table(table_name, MetaData(), autoload_with=connection)
    for column in table.columns:
        if column.name in values or column.nullable or column.server_default is not None or column.computed:
            continue
        python_type = column.type.python_type
        values[column.name] = {str: "x", int: 0, bool: False, bytes: b"x", dict: {}, list: [],
                               datetime: datetime(2026, 11, 1, tzinfo=UTC)}.get(python_type, "x")
    connection.execute(table.insert().values(**values))


def test_sales_made_before_the_daily_counts_are_counted_by_their_utc_day(earlier_database):
    """20261130_0028 fills each buyer's daily counts from the sales already made, by UTC day."""
    upgrade(earlier_database, "20261129_0027")
    engine = create_engine(earlier_database)
    try:
        with engine.begin() as connection:
            for buyer in ("b1", "b2"):
                _insert_filled(connection, "buyers", id=buyer, name=buyer, exclusive=False, active=True)
            for n, (buyer, cents, at) in enumerate([
                    ("b1", 2500, datetime(2026, 11, 20, 23, 59, tzinfo=UTC)),
                    ("b1", 1500, datetime(2026, 11, 20, 0, 0, tzinfo=UTC)),
                    ("b1", 4000, datetime(2026, 11, 21, 0, 1, tzinfo=UTC)),
                    ("b2", 999, datetime(2026, 11, 20, 12, 0, tzinfo=UTC)),
                    (None, 700, datetime(2026, 11, 20, 12, 0, tzinfo=UTC))]):
                _insert_filled(connection, "leads", id=f"lead-{n}", request_id=f"lead-{n}", reference=f"R{n}",
                               created_at=at)
                _insert_filled(connection, "sales", id=f"sale-{n}", lead_id=f"lead-{n}", buyer_id=buyer,
                               price_cents=cents, exclusive=False, created_at=at)
        upgrade(earlier_database)
        with engine.connect() as connection:
            counts = {(buyer, str(day)): (leads, cents) for buyer, day, leads, cents in connection.execute(
                text("SELECT buyer_id, day, leads, cents FROM buyer_spend_days"))}
        assert counts == {("b1", "2026-11-20"): (2, 4000), ("b1", "2026-11-21"): (1, 4000),
                          ("b2", "2026-11-20"): (1, 999)}
    finally:
        engine.dispose()
