"""Start `servicematch serve` the way `make run` does, on a free port, for a benchmark."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg

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
def running_server(database_url: str, extra_env: dict[str, str] | None = None,
                   args: tuple[str, ...] = ()) -> Iterator[str]:
    """The real server process; yields its base URL and stops it afterwards."""
    port = free_port()
    env = {
        **os.environ,
        "SERVICEMATCH_DATABASE_URL": database_url,
        "SERVICEMATCH_SITE_ORIGIN": f"http://127.0.0.1:{port}",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        **(extra_env or {}),
    }
    process = subprocess.Popen([sys.executable, "-m", "servicematch.cli", "serve", *args], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError("the server exited during start-up")
            try:
                if httpx.get(f"{base_url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer within 60 s")
            time.sleep(0.2)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


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
