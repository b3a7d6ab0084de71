"""What the deployment stands on, on this machine: Debian packages (installed when missing),
PostgreSQL, Redis, a certificate, and child processes started, awaited and stopped."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg

POSTGRES_ADMIN_URL = os.environ.get("SERVICEMATCH_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_URL = "redis://127.0.0.1:6379/0"
START_SECONDS = 180.0


# The niceness of what stands for the outside world (the visitors, the buyers): on a machine shared
# with other work, they must not be the ones starved, or the test measures the machine, not the
# deployment (visitors' TLS handshakes outlasting nginx's 15-second client timeout, bids too late).
WORLD_NICENESS = -5


def as_world(pid: int = 0) -> None:
    """Run `pid` (0: the calling thread) ahead of the deployment's own processes."""
    os.setpriority(os.PRIO_PROCESS, pid, WORLD_NICENESS)


def as_deployment(pid: int = 0) -> None:
    """Run `pid` at the ordinary priority (a process started from a favoured thread inherits it)."""
    os.setpriority(os.PRIO_PROCESS, pid, 0)


@contextlib.contextmanager
def favoured() -> Iterator[None]:
    """The calling thread (on Linux, priority is a thread's) runs as the world while inside."""
    before = os.getpriority(os.PRIO_PROCESS, 0)
    as_world()
    try:
        yield
    finally:
        os.setpriority(os.PRIO_PROCESS, 0, before)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop_process(process: subprocess.Popen, signum: int = signal.SIGTERM, seconds: float = 30) -> None:
    if process.poll() is None:
        process.send_signal(signum)
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_until_answers(url: str, process: subprocess.Popen, what: str, **client: object) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited during start-up (code {process.returncode})")
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(url, timeout=2, **client).status_code == 200:
                return
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not answer {url} within {START_SECONDS:.0f} s")
        time.sleep(0.2)


def apt_install(package: str, binary: str) -> str:
    """Debian's `package`, installed (as root, from the package archive); the path of `binary`."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if subprocess.run(["apt-get", "install", "-y", "-qq", package], env=env, capture_output=True,
                      check=False).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], env=env, check=True, capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", package], env=env, check=True, capture_output=True)
    found = shutil.which(binary) or shutil.which(binary, path="/usr/sbin:/usr/bin")
    if found is None:
        raise RuntimeError(f"{package} installed no {binary}")
    return found


def ensure_nginx() -> str:
    """Debian's nginx, installed when missing."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin") or apt_install("nginx", "nginx")


def redis_answers(url: str) -> bool:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """This machine's Redis at 127.0.0.1:6379 when one answers; else Debian's redis-server
    (installed when missing) on a free port of the run's own, stopped afterwards."""
    if redis_answers(REDIS_URL):
        yield REDIS_URL
        return
    binary = shutil.which("redis-server") or apt_install("redis-server", "redis-server")
    port = free_port()
    process = subprocess.Popen([binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly",
                                "no", "--dir", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        url = f"redis://127.0.0.1:{port}/0"
        deadline = time.monotonic() + 30
        while not redis_answers(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.2)
        yield url
    finally:
        stop_process(process)


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost (openssl req -x509), and its key."""
    folder.mkdir(mode=0o700, exist_ok=True)
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "2", "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    name = f"servicematch_deploy_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    base = POSTGRES_ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
