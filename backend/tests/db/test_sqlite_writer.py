"""SQLite writers of one process queue on a Python lock instead of failing or sleeping."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import OperationalError

from servicematch.db.session import make_engine
from servicematch.db.sqlite_writer import SQLiteWriterQueue

THREADS = 8
WRITES_PER_THREAD = 25


def _engine(path: Path, *, queued: bool) -> Engine:
    # A zero busy timeout: any writer that meets SQLite's lock fails at once, so the test
    # sees every collision the queue did not prevent.
    engine = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False, "timeout": 0},
                           pool_size=THREADS, max_overflow=0)
    with engine.begin() as conn:
        conn.exec_driver_sql("PRAGMA journal_mode=WAL")
        conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS rows (n INTEGER)")
    if queued:
        SQLiteWriterQueue(timeout_seconds=10).install(engine)
    return engine


def _write_concurrently(engine: Engine) -> list[Exception]:
    errors: list[Exception] = []

    def writer(thread: int) -> None:
        for n in range(WRITES_PER_THREAD):
            try:
                with engine.connect() as conn:
                    conn.execute(text("INSERT INTO rows VALUES (:n)"), {"n": thread * 1000 + n})
                    time.sleep(0.001)  # hold the write lock a moment, as a real transaction does
                    conn.execute(text("INSERT INTO rows VALUES (:n)"), {"n": -(thread * 1000 + n)})
                    conn.commit()
            except OperationalError as error:
                errors.append(error)

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def _row_count(engine: Engine) -> int:
    with engine.connect() as conn:
        return conn.execute(text("SELECT count(*) FROM rows")).scalar_one()


def test_without_the_queue_concurrent_writers_collide(tmp_path):
    engine = _engine(tmp_path / "plain.db", queued=False)

    errors = _write_concurrently(engine)

    assert errors and all("locked" in str(error) for error in errors)


def test_queued_writers_all_succeed(tmp_path):
    engine = _engine(tmp_path / "queued.db", queued=True)

    errors = _write_concurrently(engine)

    assert errors == []
    assert _row_count(engine) == THREADS * WRITES_PER_THREAD * 2


def test_the_lock_is_given_back_on_rollback_and_on_return_to_the_pool(tmp_path):
    engine = _engine(tmp_path / "released.db", queued=True)
    with engine.connect() as conn:
        conn.execute(text("INSERT INTO rows VALUES (1)"))
        conn.rollback()
    with engine.connect() as conn:
        conn.execute(text("INSERT INTO rows VALUES (2)"))
        # closed without commit: the pool's reset rolls back and must free the lock

    done = threading.Event()

    def write_from_another_thread() -> None:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO rows VALUES (3)"))
        done.set()

    threading.Thread(target=write_from_another_thread).start()
    assert done.wait(timeout=5)
    assert _row_count(engine) == 1


def test_readers_do_not_wait_for_a_writer(tmp_path):
    engine = _engine(tmp_path / "reads.db", queued=True)
    with engine.connect() as writer:
        writer.execute(text("INSERT INTO rows VALUES (1)"))  # holds the lock, not committed
        result: list[int] = []
        reader = threading.Thread(target=lambda: result.append(_row_count(engine)))
        reader.start()
        reader.join(timeout=5)
        assert result == [0]  # WAL: the reader sees the last committed state at once
        writer.commit()


def test_a_writer_waiting_past_the_timeout_gets_sqlites_own_error(tmp_path):
    engine = _engine(tmp_path / "timeout.db", queued=False)
    queue = SQLiteWriterQueue(timeout_seconds=0.05)
    queue.install(engine)
    with engine.connect() as holder:
        holder.execute(text("INSERT INTO rows VALUES (1)"))
        errors: list[Exception] = []

        def blocked_writer() -> None:
            try:
                with engine.begin() as conn:
                    conn.execute(text("INSERT INTO rows VALUES (2)"))
            except OperationalError as error:
                errors.append(error)

        thread = threading.Thread(target=blocked_writer)
        thread.start()
        thread.join(timeout=5)
        holder.commit()
    assert len(errors) == 1 and "database is locked" in str(errors[0])


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_in_memory_databases_still_get_an_engine(url):
    with make_engine(url).connect() as conn:
        assert conn.execute(text("SELECT 1")).scalar_one() == 1
