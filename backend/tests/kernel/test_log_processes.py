"""SERVICEMATCH_LOG_FORMAT=json in each process, run as a shell runs them: `servicematch serve` (with
uvicorn's own lines and the worker child it starts) and `servicematch worker` write one JSON
object a line to stderr, and each worker's heartbeat row comes and, at a clean stop, goes."""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from delivery_receivers import free_port
from sqlalchemy import create_engine, select

from servicematch.ops.heartbeat import WorkerHeartbeat

WAIT_SECONDS = 60


@pytest.fixture
def sqlite_url(database_url: str) -> str:
    if not database_url.startswith("sqlite"):
        pytest.skip("how a process logs does not depend on the database: run once, on SQLite")
    return database_url


class Running:
    """A `servicematch` command in a process of its own, its stderr lines collected as they come."""

    def __init__(self, args: list[str], database_url: str, cwd: Path) -> None:
        env = {name: value for name, value in os.environ.items() if not name.startswith("SERVICEMATCH_")}
        env.update(SERVICEMATCH_LOG_FORMAT="json", SERVICEMATCH_DATABASE_URL=database_url,
                   SERVICEMATCH_ENVIRONMENT="test", SERVICEMATCH_DATA_KEY=base64.b64encode(os.urandom(32)).decode(),
                   SERVICEMATCH_MAIL_DIR=str(cwd / "mail"), SERVICEMATCH_METRICS_DIR=str(cwd / "metrics"))
        self.lines: list[str] = []
        self.process = subprocess.Popen([sys.executable, "-m", "servicematch.cli", *args], cwd=cwd, env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    def wait_for_line(self, predicate) -> dict:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            for line in list(self.lines):
                parsed = _json(line)
                if parsed is not None and predicate(parsed):
                    return parsed
            assert self.process.poll() is None, "\n".join(self.lines)
            time.sleep(0.1)
        raise AssertionError("no such line:\n" + "\n".join(self.lines))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(WAIT_SECONDS)
        finally:
            if self.process.poll() is None:
                self.process.kill()
        self._reader.join(5)


def _json(line: str) -> dict | None:
    try:
        parsed = json.loads(line)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def _heartbeat_rows(database_url: str) -> list[str]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            return list(connection.execute(select(WorkerHeartbeat.worker_id)).scalars())
    finally:
        engine.dispose()


def _beating(line: dict) -> bool:
    return line["logger"] == "servicematch.ops.heartbeat" and "beats every" in line["message"]


def test_serve_and_its_worker_child_write_json_lines(sqlite_url, tmp_path, app):
    # `app` is requested for its clean-up of the tables.
    port = free_port()
    served = Running(["serve", "--port", str(port), "--no-migrate", "--worker"], sqlite_url, tmp_path)
    try:
        started = served.wait_for_line(lambda line: line["logger"] == "uvicorn.error"
                                       and "Application startup complete" in line["message"])
        answer = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10)
        assert answer.status_code == 200 and answer.headers["x-request-id"]
        served.wait_for_line(_beating)  # written by the worker child
        assert len(_heartbeat_rows(sqlite_url)) == 1
    finally:
        served.stop()
    assert set(started) >= {"time", "level", "logger", "message"}
    assert [line for line in served.lines if _json(line) is None] == []
    assert _heartbeat_rows(sqlite_url) == []  # the child stopped cleanly with the server


def test_the_worker_command_writes_json_lines(sqlite_url, tmp_path, app):
    worker = Running(["worker"], sqlite_url, tmp_path)
    try:
        worker.wait_for_line(_beating)
        assert len(_heartbeat_rows(sqlite_url)) == 1
    finally:
        worker.stop()
    assert worker.process.returncode == 0, "\n".join(worker.lines)
    assert [line for line in worker.lines if _json(line) is None] == []
    assert _heartbeat_rows(sqlite_url) == []
