"""Run the real server as a child process and wait until it answers: for benchmarks, the
screenshot script and the browser tests, which all drive `servicematch serve` as a user runs it."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import httpx

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SERVE = (sys.executable, "-m", "servicematch.cli", "serve")
# Generous: on a busy machine start-up (imports, migrations, catalogue, pages rendered at build
# time) has taken 45 s.
START_TIMEOUT_SECONDS = 180.0


class ServerDidNotStart(RuntimeError):
    """The server exited, or did not answer /api/health in time."""


def start_server(*, env: dict[str, str], base_url: str, command: tuple[str, ...] = SERVE,
                 output: IO | int = subprocess.DEVNULL,
                 timeout_seconds: float = START_TIMEOUT_SECONDS) -> subprocess.Popen:
    """Start `command` and return it once `base_url`/api/health answers 200; raises ServerDidNotStart."""
    process = subprocess.Popen(list(command), cwd=PROJECT_ROOT, env=env, stdout=output,
                               stderr=subprocess.STDOUT)
    deadline = time.monotonic() + timeout_seconds
    while True:
        if process.poll() is not None:
            raise ServerDidNotStart(f"the server exited during start-up (code {process.returncode})")
        try:
            if httpx.get(f"{base_url}/api/health", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            stop_server(process)
            raise ServerDidNotStart(f"the server did not answer within {timeout_seconds:.0f} s")
        time.sleep(0.2)


def stop_server(process: subprocess.Popen, timeout_seconds: float = 15) -> None:
    """Ask the server to stop (it finishes work under way), and kill it if it does not."""
    process.terminate()
    try:
        process.wait(timeout=timeout_seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
