"""Start the whole deployment on this machine: buyers and an SMTP server standing in for the world,
a fresh PostgreSQL database and Redis, the migration unit, two web units and two worker units (their
own command lines), and nginx with the project's site file in front of them."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import ssl
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from local_services import (
    as_world,
    ensure_nginx,
    free_port,
    make_certificate,
    redis_server,
    stop_process,
    throwaway_postgres,
    wait_until_answers,
)
from local_stack import (
    ROOT,
    UNITS,
    Ports,
    Supervised,
    Unit,
    nginx_main_config,
    nginx_site,
    production_env,
)

PYTHON = ROOT / ".venv" / "bin" / "python"
LOAD_BUYERS = ROOT / "bench" / "load_buyers.py"


@dataclass
class Stack:
    folder: Path
    base_url: str  # https://127.0.0.1:<port>, through nginx
    http_url: str  # nginx's plain-HTTP server (redirects)
    cert: Path
    ports: Ports
    database_url: str
    buyers_url: str
    web: list[Supervised]
    workers: list[Supervised]
    nginx: subprocess.Popen

    @property
    def access_log(self) -> Path:
        return self.folder / "logs" / "servicematch.access.log"

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cert))

    def web_url(self, index: int) -> str:
        """One web process directly, as Prometheus on this machine reads it."""
        return f"http://127.0.0.1:{self.ports.web[index]}"


def add_buyers(unit: Unit, buyers_url: str, count: int) -> None:
    """`servicematch buyers add` for each local buyer, with the units' environment, in one
    interpreter (one start-up instead of one per buyer). Credit terms without a limit: the load
    spends more than a prepaid balance holds."""
    commands = [["buyers", "add", "--name", f"Deploy buyer {n}", "--ping-url", f"{buyers_url}/b{n}/ping",
                 "--post-url", f"{buyers_url}/b{n}/post", "--exclusive", "--terms", "credit", "--credit-limit", "none",
                 "--secret", "whsec_" + base64.b64encode(os.urandom(24)).decode()] for n in range(count)]
    script = ("import json, sys\nfrom servicematch.cli import main\n"
              "for args in json.loads(sys.argv[1]):\n    main(args, standalone_mode=False)")
    done = subprocess.run([str(PYTHON), "-c", script, json.dumps(commands)], cwd=unit.working_directory(),
                          env=unit.environment(), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"buyers add failed:\n{done.stdout}\n{done.stderr}")


def background(command: list[str], log: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    with open(log, "wb") as output:
        return subprocess.Popen(command, cwd=ROOT, env=env or dict(os.environ), stdout=output,
                                stderr=subprocess.STDOUT)


@dataclass
class Backing:
    """What the web processes and workers stand on: buyers, SMTP, a database, Redis, the settings."""

    folder: Path
    cert: Path
    key: Path
    database_url: str
    buyers_url: str
    extra_env: dict[str, str]  # beside the units' own environment


def start_backing(stack: contextlib.ExitStack, folder: Path, *, site_origin: str, buyers: int,
                  env_overrides: dict[str, str] | None = None) -> Backing:
    """Buyers, an SMTP server, a fresh database and Redis (each stopped by `stack`), the settings
    file filled in, the migration unit run, and the buyers added."""
    for part in ("logs", "state"):
        (folder / part).mkdir(exist_ok=True)
    logs = folder / "logs"
    cert, key = make_certificate(folder / "tls")
    buyers_port, smtp_port = free_port(), free_port()
    buyers_url = f"http://127.0.0.1:{buyers_port}"
    buyers_process = background([str(PYTHON), str(LOAD_BUYERS), "--port", str(buyers_port), "--buyers",
                                 str(buyers)], logs / "buyers.log")
    stack.callback(stop_process, buyers_process)
    as_world(buyers_process.pid)
    # A real SMTP server that insists on STARTTLS, with the run's certificate; it keeps nothing.
    smtp = background([str(PYTHON), "-m", "aiosmtpd", "-n", "-c", "aiosmtpd.handlers.Sink",
                       "-l", f"127.0.0.1:{smtp_port}", "--tlscert", str(cert), "--tlskey", str(key)],
                      logs / "smtp.log")
    stack.callback(stop_process, smtp)
    as_world(smtp.pid)
    database_url = stack.enter_context(throwaway_postgres())
    redis_url = stack.enter_context(redis_server(folder / "state"))
    env_file = folder / "servicematch.env"
    # The buyers listen on 127.0.0.1 over plain HTTP, which production refuses unless told.
    overrides = {"SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS": "true", **(env_overrides or {})}
    env_file.write_text(production_env(database_url=database_url, redis_url=redis_url, site_origin=site_origin,
                                       smtp_port=smtp_port, metrics_dir=folder / "state" / "metrics",
                                       overrides=overrides))
    env_file.chmod(0o600)
    migrate = Unit(UNITS / "servicematch-migrate.service", "", folder)
    subprocess.run(migrate.command(), cwd=migrate.working_directory(), env=migrate.environment(),
                   check=True, capture_output=True)
    wait_until_answers(f"{buyers_url}/count", buyers_process, "the buyers")
    add_buyers(migrate, buyers_url, buyers)
    # Mail to 127.0.0.1 is checked against the run's own certificate, should the sender verify it.
    return Backing(folder=folder, cert=cert, key=key, database_url=database_url, buyers_url=buyers_url,
                   extra_env={"SSL_CERT_FILE": str(cert)})


@contextlib.contextmanager
def running_stack(folder: Path, *, buyers: int = 5, web: int = 2, workers: int = 2,
                  env_overrides: dict[str, str] | None = None) -> Iterator[Stack]:
    nginx_binary = ensure_nginx()
    folder.chmod(0o755)  # nginx's workers (www-data) write their temporary files below it
    for part in ("nginx", "webroot"):
        (folder / part).mkdir(exist_ok=True)
    ports = Ports(web=[free_port() for _ in range(web)])
    base_url = f"https://127.0.0.1:{ports.https}"
    with contextlib.ExitStack() as stack:
        backing = start_backing(stack, folder, site_origin=base_url, buyers=buyers, env_overrides=env_overrides)
        web_processes = [Supervised(f"web-{port}", Unit(UNITS / "servicematch-web@.service", str(port), folder),
                                    backing.extra_env) for port in ports.web]
        worker_processes = [Supervised(f"worker-{n}", Unit(UNITS / "servicematch-worker@.service", str(n), folder),
                                       backing.extra_env) for n in range(1, workers + 1)]
        for process in (*web_processes, *worker_processes):
            stack.callback(process.stop)

        site = folder / "nginx" / "servicematch.conf"
        site.write_text(nginx_site(ports, backing.cert, backing.key, folder / "logs", folder / "webroot"))
        main_config = folder / "nginx" / "nginx.conf"
        main_config.write_text(nginx_main_config(folder / "nginx", site))
        checked = subprocess.run([nginx_binary, "-t", "-q", "-c", str(main_config)], capture_output=True, text=True,
                                 check=False)
        if checked.returncode != 0:
            raise RuntimeError(f"nginx -t refused the site:\n{checked.stderr}")
        nginx = background([nginx_binary, "-c", str(main_config), "-g", "daemon off;"], folder / "logs" / "nginx.log")
        stack.callback(stop_process, nginx)

        for port, process in zip(ports.web, web_processes, strict=True):
            wait_until_answers(f"http://127.0.0.1:{port}/api/health", process.process, process.name)
        for process in worker_processes:
            if not process.running():
                raise RuntimeError(f"{process.name} exited during start-up; see {folder / 'logs'}")
        found = Stack(folder=folder, base_url=base_url, http_url=f"http://127.0.0.1:{ports.http}",
                      cert=backing.cert, ports=ports, database_url=backing.database_url,
                      buyers_url=backing.buyers_url, web=web_processes, workers=worker_processes, nginx=nginx)
        wait_until_answers(f"{base_url}/api/health", nginx, "nginx", verify=found.tls())
        yield found


def log_tails(folder: Path, lines: int = 15) -> str:
    """The last lines of every process's log, for a failure's message."""
    parts = []
    for log in sorted((folder / "logs").glob("*.log")):
        tail = log.read_text(errors="replace").splitlines()[-lines:]
        parts.append(f"--- {log.name}\n" + "\n".join(tail))
    return "\n".join(parts)


if __name__ == "__main__":
    # python deploy/tests/running_stack.py FOLDER: start everything and wait (Ctrl-C stops it).
    import time

    with running_stack(Path(sys.argv[1]).resolve()) as running:
        print(f"serving at {running.base_url} (certificate {running.cert}); Ctrl-C stops", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(1)
