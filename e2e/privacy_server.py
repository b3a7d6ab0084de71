"""A server of its own for the privacy browser tests (e2e/conftest.py's shared_privacy_server) and
benchmark: a real buyer receiver, a provider webhook receiver, a real SMTP server, two providers, on
SQLite or a throwaway PostgreSQL database."""

from __future__ import annotations

import base64
import email
import os
import subprocess
import sys
import uuid
from dataclasses import dataclass, field
from email import policy
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
# The backend tests' stand-in receivers (backend/tests/delivery_receivers.py).
sys.path.insert(0, str(ROOT / "backend" / "tests"))

from cli_forks import run_cli
from delivery_receivers import HttpReceiver, SmtpReceiver, free_port
from funnel_steps import Contact, complete_steps, lead_form_steps, service_config, thank_you_heading
from playwright.sync_api import Page

from servicematch.devserver import start_server

POSTGRES_ADMIN_URL = os.environ.get("SERVICEMATCH_TEST_POSTGRES_URL",
                                    "postgresql://postgres@127.0.0.1:5432/postgres")
BUYER_SECRET = "e2e-buyer-secret-0123456789abcdef"
PROVIDER_SECRET = "e2e-provider-secret-0123456789abcd"
BUYER_NAME = "Acme Home Quotes LLC"


@dataclass
class PrivacyServer:
    base_url: str
    buyer: HttpReceiver
    provider_hook: HttpReceiver
    smtp: SmtpReceiver
    process: subprocess.Popen
    env: dict[str, str]
    cleanup: list = field(default_factory=list)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=15)
        for server in (self.buyer, self.provider_hook, self.smtp):
            server.stop()
        for step in self.cleanup:
            step()


def _database(backend: str, workdir: Path) -> tuple[str, list]:
    if backend == "sqlite":
        return f"sqlite:///{workdir / 'privacy.db'}", []
    name = f"servicematch_privacy_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    base = POSTGRES_ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    return f"{base}/{name}", [drop]


def _cli(env: dict[str, str], *commands: list[str]) -> None:
    """Run `servicematch` commands one after another, each a process of its own (cli_forks.py)."""
    for args in commands:
        result = run_cli(args, env=env)
        if result.returncode != 0:
            raise RuntimeError(f"servicematch {' '.join(args)} failed: {result.stderr or result.stdout}")


def start_privacy_server(*, backend: str, workdir: Path, static_dir: Path, log: Path) -> PrivacyServer:
    buyer, provider_hook, smtp = HttpReceiver().start(), HttpReceiver().start(), SmtpReceiver().start()
    database_url, cleanup = _database(backend, workdir)
    port = free_port()
    env = {
        **os.environ,
        "SERVICEMATCH_DATABASE_URL": database_url,
        "SERVICEMATCH_ENVIRONMENT": "test",
        "SERVICEMATCH_SECRET_KEY": "e2e-privacy-secret-key-0123456789abcdef",
        "SERVICEMATCH_DATA_KEY": base64.b64encode(os.urandom(32)).decode(),
        "SERVICEMATCH_SITE_ORIGIN": f"http://127.0.0.1:{port}",
        "SERVICEMATCH_STATIC_DIR": str(static_dir),
        "SERVICEMATCH_SUBMIT_RATE_LIMIT": "10000",
        "SERVICEMATCH_BUYER_URL": buyer.url,
        "SERVICEMATCH_BUYER_SECRET": BUYER_SECRET,
        "SERVICEMATCH_BUYER_NAME": BUYER_NAME,
        "SERVICEMATCH_SMTP_HOST": "127.0.0.1",
        "SERVICEMATCH_SMTP_PORT": str(smtp.port),
        "SERVICEMATCH_SMTP_STARTTLS": "false",
        "SERVICEMATCH_MAIL_DIR": str(workdir / "mail"),
        "SERVICEMATCH_WORKER_POLL_SECONDS": "0.5",
        "HOST": "127.0.0.1",
        "PORT": str(port),
    }
    _cli(env, ["migrate"],
         ["providers", "add", "--name", "Cool Air", "--email", "dispatch@coolair.example", "--service",
          "hvac", "--state", "TX", "--webhook-url", provider_hook.url, "--webhook-secret", PROVIDER_SECRET,
          "--terms", "credit"],
         ["providers", "add", "--name", "Lone Star Heating", "--email", "office@lonestar.example",
          "--service", "hvac", "--state", "TX", "--terms", "credit"])
    base_url = f"http://127.0.0.1:{port}"
    with log.open("w") as out:
        process = start_server(env=env, base_url=base_url, output=out)
    return PrivacyServer(base_url=base_url, buyer=buyer, provider_hook=provider_hook, smtp=smtp,
                         process=process, env=env, cleanup=cleanup)


def mail_to(smtp, address: str, count: int = 1) -> list:
    """The messages to `address`, once at least `count` arrived (parsed)."""
    with smtp._changed:
        assert smtp._changed.wait_for(
            lambda: len([m for m in smtp.messages if address in m[0]]) >= count, 30), f"no mail to {address}"
        return [email.message_from_string(content, policy=policy.default)
                for recipients, content in smtp.messages if address in recipients]


def submit_hvac_lead(page: Page, server: PrivacyServer, contact: Contact) -> dict:
    """Send an HVAC lead through the form as a visitor does; the service's configuration."""
    service = service_config(server.base_url, "hvac")
    page.goto(f"{server.base_url}/form/hvac")
    complete_steps(page, lead_form_steps(server.base_url, service), contact)
    thank_you_heading(page)
    return service
