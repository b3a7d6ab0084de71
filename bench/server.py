"""Start `servicematch serve` the way `make run` does, on a free port, for a benchmark.

Run as a script (`python bench/server.py`), it serves the benchmark app instead: the production
app plus `POST /api/bench/insert`, the throughput benchmark's yardstick, whose table only the
benchmark creates. Production code and migrations know nothing of either.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import tempfile
import uuid
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import psycopg
from fastapi import APIRouter, Body, FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import DateTime, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from servicematch.app import create_app
from servicematch.deps import SessionFactoryDep
from servicematch.devserver import SERVE, start_server, stop_server
from servicematch.kernel.clock import utcnow
from servicematch.schema.migrate import upgrade
from servicematch.settings import get_settings

ROOT = Path(__file__).resolve().parents[1]
POSTGRES_ADMIN_URL = os.environ.get("SERVICEMATCH_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A fresh PostgreSQL database for one run, dropped afterwards."""
    name = f"servicematch_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    base = POSTGRES_ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def fresh_database(kind: str) -> Iterator[str]:
    """The URL of an empty database for one run ("sqlite": a file in a temporary folder;
    "postgresql": a throwaway database), removed afterwards."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            yield f"sqlite:///{folder}/bench.db"
    else:
        with throwaway_postgres() as url:
            yield url


@contextlib.contextmanager
def running_server(database_url: str, extra_env: dict[str, str] | None = None,
                   args: tuple[str, ...] = (), *, benchmark_app: bool = False) -> Iterator[str]:
    """The real server process; yields its base URL and stops it afterwards.

    `benchmark_app` serves the app with the bare-insert baseline (see `create_benchmark_app`).
    """
    port = free_port()
    env = {
        **os.environ,
        "SERVICEMATCH_DATABASE_URL": database_url,
        "SERVICEMATCH_SITE_ORIGIN": f"http://127.0.0.1:{port}",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        **(extra_env or {}),
    }
    command = (sys.executable, str(Path(__file__))) if benchmark_app else (*SERVE, *args)
    base_url = f"http://127.0.0.1:{port}"
    process = start_server(env=env, base_url=base_url, command=command)
    try:
        yield base_url
    finally:
        stop_server(process)


def machine_description() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), "unknown CPU")
    memory_kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                     if line.startswith("MemTotal"))
    return f"{os.cpu_count()} cores ({cpu}), {memory_kb / 1024 / 1024:.0f} GiB memory, Python {sys.version.split()[0]}"


def write_report_section(heading: str, body: str, report: Path = ROOT / "docs" / "benchmarks.md") -> None:
    """Replace (or add) one `## heading` section of docs/benchmarks.md, leaving the others alone."""
    text = report.read_text() if report.exists() else "# Benchmarks\n"
    marker = f"## {heading}\n"
    section = f"{marker}\n{body.strip()}\n"
    if marker in text:
        start = text.index(marker)
        following = text.find("\n## ", start + len(marker))
        end = len(text) if following == -1 else following + 1
        text = text[:start] + section + ("\n" + text[end:] if following != -1 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text(text)


class _BaselineBase(DeclarativeBase):
    """Its own metadata: the baseline table is never part of the app's schema or migrations."""


class BaselineRow(_BaselineBase):
    """A narrow row: the cheapest durable write the app can make, as a yardstick."""

    __tablename__ = "bench_baseline_rows"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    request_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


def create_benchmark_app() -> FastAPI:
    """The production app (settings from the environment) plus POST /api/bench/insert.

    The route parses the same JSON a lead sends, inserts one row through the ORM and answers 202,
    so the throughput benchmark can state how close the real submit endpoint comes to it.
    """
    app = create_app(tune_gc=True)  # as `servicematch serve` serves it (create_served_app)
    _BaselineBase.metadata.create_all(app.state.engine)
    router = APIRouter(prefix="/api/bench", include_in_schema=False)

    @router.post("/insert", status_code=202)
    def bare_insert(payload: Annotated[dict[str, Any], Body()], factory: SessionFactoryDep) -> JSONResponse:
        request_id = str(payload.get("requestId", ""))[:64]
        with factory() as session:
            session.add(BaselineRow(request_id=request_id))
            session.commit()
        return JSONResponse({"requestId": request_id}, status_code=202)

    # Ahead of the site's catch-all, which answers every unknown /api path with a 404.
    before = len(app.router.routes)
    app.include_router(router)
    added = app.router.routes[before:]
    del app.router.routes[before:]
    app.router.routes[:0] = added
    return app


def serve_benchmark_app() -> None:
    """Migrate, then serve `create_benchmark_app` as `servicematch serve` serves the real one."""
    import uvicorn

    settings = get_settings()
    upgrade(settings.database_url)
    uvicorn.run("server:create_benchmark_app", factory=True, app_dir=str(Path(__file__).parent),
                host=os.environ.get("HOST", "127.0.0.1"), port=int(os.environ.get("PORT", "8000")),
                proxy_headers=False, access_log=False)


if __name__ == "__main__":
    serve_benchmark_app()
