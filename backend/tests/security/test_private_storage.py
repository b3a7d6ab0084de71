"""Item 14: the SQLite file and its directory are private; a failed write logs no parameters."""

from __future__ import annotations

import logging
import stat

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from servicematch.db.session import make_engine
from servicematch.schema.migrate import upgrade

MARKER = "203.0.113.99 Mozilla/5.0 https://site.example/?email=leak@example.com"


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_sqlite_database_and_its_directory_are_readable_by_the_owner_only(tmp_path):
    directory = tmp_path / "var" / "data"
    database = directory / "servicematch.db"
    upgrade(f"sqlite:///{database}")
    engine = make_engine(f"sqlite:///{database}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE IF NOT EXISTS probe (x TEXT)"))
        connection.execute(text("INSERT INTO probe VALUES ('x')"))
        assert (directory / "servicematch.db-wal").exists()
        assert mode(directory / "servicematch.db-wal") == 0o600
    engine.dispose()
    assert mode(directory) == 0o700
    assert mode(database) == 0o600


def test_the_engine_alone_creates_the_file_privately(tmp_path):
    database = tmp_path / "fresh" / "servicematch.db"
    engine = make_engine(f"sqlite:///{database}")
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    engine.dispose()
    assert mode(database) == 0o600 and mode(database.parent) == 0o700


def test_a_failed_statement_names_no_parameters(database_url, caplog):
    engine = make_engine(database_url)
    with pytest.raises(DBAPIError) as failure, caplog.at_level(logging.DEBUG), engine.begin() as connection:
        connection.execute(text("INSERT INTO no_such_table (a) VALUES (:value)"), {"value": MARKER})
    engine.dispose()
    assert "leak@example.com" not in str(failure.value)
    assert "203.0.113.99" not in str(failure.value)
    assert "leak@example.com" not in caplog.text
