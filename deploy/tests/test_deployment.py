"""The production deployment of deploy/, run on this machine as on a server (`make test-deploy`).

nginx (Debian's, installed when missing) runs the project's own site file with a certificate made
here; the web processes, workers and migration run the command lines of their systemd units, with
deploy/production.env.example filled in (production, real secrets, PostgreSQL, Redis, an SMTP
server that insists on STARTTLS). Five local buyers bid on 1,000 leads sent through nginx from
250 client addresses (four leads each); halfway, one web process and one worker are killed with
SIGKILL and started again after their unit's RestartSec.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from deployment_checks import (
    access_log,
    buyers_who_took,
    drained,
    leads_counted,
    open_work_detail,
    scrape,
    stored,
)
from lead_load import Sent, Visitors, lead_body, send_leads
from local_services import apt_install, favoured
from local_stack import (
    ENV_FILE,
    ENV_TEMPLATE,
    ROOT,
    UNITS,
    environment_file,
    production_env,
    unit_value,
)
from running_stack import Stack, log_tails, running_stack

from servicematch.settings import Settings, SettingsError, load_settings

LEADS, RATE = 1000, 20.0  # 50 s of leads
# Four leads from each visitor address (250 addresses): under the submission limit (10 in 10 minutes)
# even with a few sent again after the kill.
LEADS_PER_ADDRESS = 4
# Enough for a machine shared with other work; a quiet one drains in well under a minute after the load.
DRAIN_SECONDS = 300.0
SERVICES = ("servicematch-web@.service", "servicematch-worker@.service", "servicematch-migrate.service")
HARDENING = ("NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
             "CapabilityBoundingSet=", "SystemCallFilter=@system-service")
RATE_LIMITED_ADDRESS = "127.0.9.9"  # no visitor of the load uses it


@pytest.fixture(scope="module")
def stack(request: pytest.FixtureRequest) -> Iterator[Stack]:
    # Not under pytest's own temporary folder: that is private to root, and nginx's workers
    # (www-data) keep their temporary files below this one.
    folder = Path(tempfile.mkdtemp(prefix="servicematch-deploy-"))
    failed_before = request.session.testsfailed
    with running_stack(folder) as running:
        yield running
    if request.session.testsfailed == failed_before:
        shutil.rmtree(folder, ignore_errors=True)
    else:
        print(f"\nthe deployment's logs are kept in {folder / 'logs'}")


def counted_since(before: dict, after: dict, name: str, labels: tuple = ()) -> float:
    return after.get((name, labels), 0.0) - before.get((name, labels), 0.0)


def settings_from(env: dict[str, str]) -> Settings:
    return load_settings(**{name.removeprefix("SERVICEMATCH_").lower(): value for name, value in env.items()})


def test_the_env_template_is_refused_until_filled_and_accepted_once_filled():
    with pytest.raises(SettingsError) as refused:
        settings_from(environment_file(ENV_TEMPLATE.read_text()))
    assert "SERVICEMATCH_SECRET_KEY" in str(refused.value) and "SERVICEMATCH_DATA_KEY" in str(refused.value)
    filled = environment_file(production_env(database_url="postgresql+psycopg://servicematch@127.0.0.1/servicematch",
                                             redis_url="redis://127.0.0.1:6379/0",
                                             site_origin="https://www.example.com", smtp_port=587,
                                             metrics_dir=Path("/run/servicematch/metrics")))
    settings = settings_from(filled)
    assert (settings.environment, settings.trusted_proxies, settings.allow_private_webhooks) == (
        "production", "127.0.0.1", False)
    assert settings.redis_url.startswith("redis://") and not settings.is_sqlite


def test_the_units_run_the_documented_commands_hardened():
    web, worker, migrate = (UNITS / name for name in SERVICES)
    assert unit_value(web, "ExecStart").split()[1:] == [
        "serve", "--no-worker", "--no-migrate", "--host", "127.0.0.1", "--port", "%i"]
    assert unit_value(worker, "ExecStart").split()[1:] == ["worker"]
    assert unit_value(migrate, "ExecStart").split()[1:] == ["migrate"]
    for unit in (web, worker, migrate):
        lines = {line.strip() for line in unit.read_text().splitlines()}
        assert {*HARDENING, "User=servicematch", f"EnvironmentFile={ENV_FILE}"} <= lines, unit.name


def test_systemd_accepts_the_units_and_rates_them_well_protected(tmp_path: Path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    copies = []
    for name, instance in (*zip(SERVICES, ("8001", "1", "")), ("servicematch.target", "")):
        # Instances as enabled, with this checkout's path so that verify finds the executable.
        copy = tmp_path / name.replace("@.", f"@{instance}.")
        copy.write_text((UNITS / name).read_text().replace("/opt/servicematch", str(ROOT)))
        copies.append(copy)
    verified = subprocess.run(["systemd-analyze", "verify", "--man=no", *map(str, copies)],
                              capture_output=True, text=True, check=False)
    assert (verified.returncode, verified.stderr.strip()) == (0, "")
    for copy in copies[:3]:
        # The exposure score is 0-10 (lower is better); --threshold counts tenths.
        rated = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--threshold=20", str(copy)],
                               capture_output=True, text=True, check=False)
        assert rated.returncode == 0, rated.stdout[-400:]


def test_nginx_serves_tls_http2_assets_and_limits(stack: Stack):
    curl = shutil.which("curl") or apt_install("curl", "curl")  # httpx here speaks HTTP/1.1 only
    http_version = subprocess.run([curl, "-s", "--http2", "--cacert", str(stack.cert), "-o", "/dev/null", "-w",
                                   "%{http_version}", f"{stack.base_url}/api/health"], capture_output=True, text=True,
                                  check=False)
    assert http_version.stdout == "2"
    moved = httpx.get(f"{stack.http_url}/services/hvac")
    assert moved.status_code == 301 and moved.headers["location"].startswith("https://")
    with httpx.Client(base_url=stack.base_url, verify=stack.tls()) as client:
        asset = next((ROOT / "frontend" / "dist" / "assets").glob("*.js"))
        answer = client.get(f"/assets/{asset.name}")
        assert answer.status_code == 200 and answer.content == asset.read_bytes()
        assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert answer.headers["x-content-type-options"] == "nosniff"
        for path, size in (("/api/submit-form", 65 * 1024), ("/api/events", 5 * 1024),
                           ("/api/payments/stripe/webhook", 2 * 1024 * 1024)):
            too_large = client.post(path, content=b"{" + b" " * size + b"}",
                                    headers={"content-type": "application/json"})
            assert (too_large.status_code, too_large.json()["error"]) == (413, "The request body is too large."), path
        # /metrics only on a web process's own port, never through nginx.
        assert client.get("/metrics").status_code == 404
        assert "servicematch_http_requests_total" in httpx.get(f"{stack.web_url(0)}/metrics").text
        # The id nginx made (not the client's) reaches the app, which answers with it.
        page = client.get("/", headers={"X-Request-ID": "chosen-by-the-client"})
        request_id = page.headers["x-request-id"]
        logged = access_log(stack.access_log, waiting_for={request_id})[request_id]
    assert page.status_code == 200 and "max-age=63072000" in page.headers["strict-transport-security"]
    assert (logged.request, logged.status) == ("GET / HTTP/1.1", 200)


def test_a_client_over_the_rate_limit_is_refused_by_either_web_process(stack: Stack):
    limit = Settings.model_fields["submit_rate_limit"].default
    before = scrape(stack.web_url(0))

    async def submit_from_one_address() -> list[tuple[int, str]]:
        visitors = Visitors(stack.base_url, stack.tls())
        try:
            service = await visitors.service()
            answers = []
            for n in range(limit + 4):
                body = lead_body(service, request_id=str(uuid.uuid4()), number=100_000 + n)
                # A forged X-Forwarded-For changes nothing: nginx replaces it with the real address.
                answer = await visitors.client(RATE_LIMITED_ADDRESS).post(
                    "/api/submit-form", json=body, headers={"X-Forwarded-For": f"198.51.100.{n}"})
                answers.append((answer.status_code, answer.headers["x-request-id"]))
            return answers
        finally:
            await visitors.close()

    with favoured():
        answers = asyncio.run(submit_from_one_address())
    assert [status for status, _ in answers] == [202] * limit + [429] * 4
    logged = access_log(stack.access_log, waiting_for={request_id for _, request_id in answers})
    answered_by = {status: {logged[request_id].upstream for s, request_id in answers if s == status}
                   for status in (202, 429)}
    both = {f"127.0.0.1:{port}" for port in stack.ports.web}
    assert answered_by == {202: both, 429: both}
    assert {logged[request_id].client for _, request_id in answers} == {RATE_LIMITED_ADDRESS}
    after = scrape(stack.web_url(1))
    assert leads_counted(after, "rate_limited") - leads_counted(before, "rate_limited") == 4


def test_a_thousand_leads_survive_killing_a_web_process_and_a_worker(stack: Stack):
    before = scrape(stack.web_url(1))
    killed_web, killed_worker = stack.web[0], stack.workers[0]

    def kill_halfway() -> None:
        killed_web.kill()
        killed_worker.kill()

    async def load() -> Sent:
        visitors = Visitors(stack.base_url, stack.tls())
        try:
            return await send_leads(visitors, await visitors.service(), count=LEADS, rate=RATE,
                                    leads_per_address=LEADS_PER_ADDRESS, at_half=kill_halfway)
        finally:
            await visitors.close()

    with favoured():
        sent = asyncio.run(load())
    drain = drained(stack.database_url, DRAIN_SECONDS)
    still_open = open_work_detail(stack.database_url) if drain is None else ""
    killed_web.wait_restarted()
    accepted = set(sent.accepted)
    found = stored(stack.database_url, accepted)
    took = buyers_who_took(stack.buyers_url, accepted)
    after = scrape(stack.web_url(1))
    counted = leads_counted(after, "accepted") - leads_counted(before, "accepted")
    summary = (f"{LEADS} leads at {RATE:g}/s: answers {dict(sent.every_answer)}, {sent.retried} sent again, "
               f"{len(accepted)} accepted; stored {sum(found.leads.values())} ({len(found.leads)} distinct); "
               f"{len(found.closed)} auctions closed, drained {f'in {drain:.0f} s' if drain is not None else 'NOT'} "
               f"after the load; sold {len(found.sales)} "
               f"(most sales of one lead: {max(found.sales.values(), default=0)}, "
               f"most buyers that took one lead: {max(map(len, took.values()), default=0)}); consent receipts "
               f"by SMTP with STARTTLS: {dict(found.receipts)}; /metrics accepted "
               f"+{counted:g}; kills: {killed_web.name}, {killed_worker.name}")
    print("\n" + summary)
    context = f"{summary}\n{still_open}\n{log_tails(stack.folder)}"
    assert sent.final == {202: LEADS}, context
    assert set(found.leads) == accepted and set(found.leads.values()) == {1}, context
    # Each lead's consent record keeps its visitor's own address, as nginx forwarded it.
    assert found.client_addresses == sent.sources, context
    assert drain is not None and found.closed == accepted, context
    assert max(found.sales.values()) == 1 and all(len(buyers) <= 1 for buyers in took.values()), context
    assert len(found.sales) == LEADS, context
    assert found.receipts == {"delivered": LEADS}, context
    # Every 202 a visitor read was counted; a count more is a 202 lost with the killed process
    # (its visitor sent the lead again and was answered by the other).
    assert len(accepted) <= counted <= len(accepted) + sent.retried, context
    # Every process writes to the one metrics folder of the env file, the workers' units too.
    assert [after.get(("servicematch_processes", (("kind", kind),))) for kind in ("web", "worker")] == [2, 2], context
    assert counted_since(before, after, "servicematch_auction_duration_seconds_count") >= LEADS, context
    assert counted_since(before, after, "servicematch_delivery_attempts_total",
                         (("kind", "smtp"), ("result", "delivered"))) >= LEADS, context
    for process in (*stack.web, *stack.workers):
        assert process.running(), f"{process.name} is not running\n{context}"
