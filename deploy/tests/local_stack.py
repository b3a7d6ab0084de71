"""The production deployment of deploy/ run on this machine without systemd: the same command lines
the units run (parsed from their ExecStart=), the same environment file (deploy/production.env.example
with its values filled), and nginx with the project's own site file (its ports and paths substituted).

Used by deploy/tests/test_deployment.py and bench/deployment.py. Each process's output is kept in
<folder>/logs/<name>.log.
"""

from __future__ import annotations

import base64
import os
import secrets
import shlex
import signal
import subprocess
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from local_services import as_deployment, free_port, stop_process

DEPLOY = Path(__file__).resolve().parents[1]
ROOT = DEPLOY.parent
UNITS = DEPLOY / "systemd"
SITE = DEPLOY / "nginx" / "servicematch.conf"
ENV_TEMPLATE = DEPLOY / "production.env.example"
# Where the units and the site expect things on a server (docs/deployment.md).
INSTALL_ROOT, STATE_DIR = "/opt/servicematch", "/var/lib/servicematch"
ENV_FILE = "/etc/servicematch/servicematch.env"
# What systemd gives a service besides its own Environment= and EnvironmentFile=.
SYSTEMD_BASE_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}


def unit_values(path: Path, key: str, section: str = "Service") -> list[str]:
    """Every value of `key` in `section` of a systemd unit file, in order."""
    values, current = [], None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
        elif current == section and "=" in line:
            name, _, value = line.partition("=")
            if name.strip() == key:
                values.append(value.strip())
    return values


def unit_value(path: Path, key: str, section: str = "Service") -> str:
    values = unit_values(path, key, section)
    if len(values) != 1:
        raise ValueError(f"{path.name}: expected one {key}=, found {len(values)}")
    return values[0]


def environment_file(text: str) -> dict[str, str]:
    """KEY=value lines as systemd's EnvironmentFile= reads them (comments and blank lines skipped,
    one pair of surrounding quotes removed)."""
    values = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        name, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[name.strip()] = value
    return values


def substituted(text: str, replacements: dict[str, str], what: str) -> str:
    """`text` with each key replaced; a key that no longer occurs is an error, so the test follows
    the files it runs instead of silently running something else."""
    for old, new in replacements.items():
        if old not in text:
            raise ValueError(f"{what} no longer contains {old!r}: update deploy/tests/local_stack.py")
        text = text.replace(old, new)
    return text


@dataclass
class Unit:
    """One unit's command line, environment and restart delay, as this machine runs it."""

    path: Path
    instance: str
    folder: Path

    def _on_this_machine(self, value: str) -> str:
        return (value.replace("%i", self.instance).replace(INSTALL_ROOT, str(ROOT))
                .replace(STATE_DIR, str(self.folder / "state"))
                .replace(ENV_FILE, str(self.folder / "servicematch.env")))

    def command(self) -> list[str]:
        return [self._on_this_machine(part) for part in shlex.split(unit_value(self.path, "ExecStart"))]

    def environment(self) -> dict[str, str]:
        env = dict(SYSTEMD_BASE_ENV)
        for line in unit_values(self.path, "Environment"):
            env.update(part.split("=", 1) for part in shlex.split(line))
        env_file = Path(self._on_this_machine(unit_value(self.path, "EnvironmentFile")))
        return {**env, **environment_file(env_file.read_text())}

    def working_directory(self) -> Path:
        return Path(self._on_this_machine(unit_value(self.path, "WorkingDirectory")))

    def restart_seconds(self) -> float:
        return float(unit_value(self.path, "RestartSec"))


class Supervised:
    """A unit's process; SIGKILLed by `kill`, then started again after the unit's RestartSec, as
    systemd's Restart=always does."""

    def __init__(self, name: str, unit: Unit, extra_env: dict[str, str]) -> None:
        self.name, self.unit, self.extra_env = name, unit, extra_env
        self.kills = 0
        self.process = self._start()
        self._restart: threading.Timer | None = None

    def _start(self) -> subprocess.Popen:
        log = self.unit.folder / "logs" / f"{self.name}.{self.kills}.log"
        with open(log, "wb") as output:
            process = subprocess.Popen(self.unit.command(), cwd=self.unit.working_directory(),
                                       env={**self.unit.environment(), **self.extra_env},
                                       stdout=output, stderr=subprocess.STDOUT)
        as_deployment(process.pid)  # restarted from a favoured thread, it would inherit its priority
        return process

    def kill(self) -> None:
        """SIGKILL: no chance to finish a request, commit a batch or record a send."""
        if self.process.poll() is not None:
            raise RuntimeError(f"{self.name} had exited by itself (code {self.process.returncode})")
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.kills += 1

        def restart() -> None:
            self.process = self._start()

        self._restart = threading.Timer(self.unit.restart_seconds(), restart)
        self._restart.start()

    def wait_restarted(self) -> None:
        if self._restart is not None:
            self._restart.join()

    def running(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        self.wait_restarted()
        stop_process(self.process)


def production_env(*, database_url: str, redis_url: str, site_origin: str, smtp_port: int, metrics_dir: Path,
                   overrides: dict[str, str] | None = None) -> str:
    """deploy/production.env.example with every FILL line filled as an operator would."""
    template = ENV_TEMPLATE.read_text()
    values = environment_file(template)
    filled = {
        "SERVICEMATCH_SECRET_KEY": secrets.token_urlsafe(48),
        "SERVICEMATCH_DATA_KEY": base64.b64encode(os.urandom(32)).decode(),
        "SERVICEMATCH_ADMIN_TOKEN": secrets.token_urlsafe(32),
        "SERVICEMATCH_DATABASE_URL": database_url,
        "SERVICEMATCH_REDIS_URL": redis_url,
        "SERVICEMATCH_SITE_ORIGIN": site_origin,
        "SERVICEMATCH_SMTP_HOST": "127.0.0.1",
        "SERVICEMATCH_SMTP_PORT": str(smtp_port),
        "SERVICEMATCH_METRICS_DIR": str(metrics_dir),
        # Keys of this run only, beside whatever else uses this Redis.
        "SERVICEMATCH_REDIS_KEY_PREFIX": f"servicematch-deploy-{uuid.uuid4().hex[:8]}",
        **(overrides or {}),
    }
    unknown = sorted(set(filled) - set(values))
    if unknown:
        raise ValueError(f"not in {ENV_TEMPLATE.name}: {unknown}")
    lines = [f"{name}={filled.get(name, value)}" for name, value in values.items()]
    return "\n".join(lines) + "\n"


@dataclass
class Ports:
    https: int = field(default_factory=free_port)
    http: int = field(default_factory=free_port)
    web: list[int] = field(default_factory=lambda: [free_port(), free_port()])


def nginx_site(ports: Ports, cert: Path, key: str | Path, logs: Path, webroot: Path) -> str:
    """deploy/nginx/servicematch.conf with this machine's ports and paths."""
    return substituted(SITE.read_text(), {
        "server 127.0.0.1:8001 ": f"server 127.0.0.1:{ports.web[0]} ",
        "server 127.0.0.1:8002 ": f"server 127.0.0.1:{ports.web[1]} ",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{ports.https} ssl http2;",
        "listen [::]:443 ssl http2;": "",
        "listen 80;": f"listen 127.0.0.1:{ports.http};",
        "listen [::]:80;": "",
        "/etc/letsencrypt/live/www.example.com/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/www.example.com/privkey.pem": str(key),
        "/var/log/nginx/": f"{logs}/",
        "/var/www/letsencrypt": str(webroot),
        INSTALL_ROOT: str(ROOT),
    }, SITE.name)


def nginx_main_config(folder: Path, site: Path) -> str:
    """What Debian's /etc/nginx/nginx.conf sets, with this run's pid, logs and temporary files."""
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = "\n".join(f"    {kind}_temp_path {folder}/{kind};" for kind in kinds)
    return f"""user www-data;
worker_processes auto;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
include /etc/nginx/modules-enabled/*.conf;
events {{
    worker_connections 1024;
}}
http {{
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {folder}/access.log;
    gzip on;
{temp}
    include {site};
}}
"""
