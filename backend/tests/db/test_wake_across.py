"""New work told across processes on PostgreSQL: a web process's commits NOTIFY, a worker of its
own LISTENs and wakes at once instead of at its poll."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid

import psycopg
import pytest
from delivery_fixtures import receiver, settings, smtp  # noqa: F401 (fixtures: a buyer that receives)
from delivery_support import form_submission

from servicematch.db import wake_across
from servicematch.kernel import wakeup
from servicematch.settings import PROJECT_ROOT


@pytest.fixture
def postgres_url(database_url: str) -> str:
    if not wake_across.told_across(database_url):
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's; on SQLite one worker beside the web process is woken by its pipe")
    return database_url


def test_sqlite_is_not_told_across():
    assert not wake_across.told_across("sqlite:///var/servicematch.db")


def test_a_notify_wakes_a_listening_worker(postgres_url):
    woken = threading.Event()
    wakeup.deliveries.subscribe(woken.set)
    listener = wake_across.Listener(postgres_url)
    try:
        listener.start()
        assert woken.wait(10)  # the look it takes once listening, for what came before
        woken.clear()
        with psycopg.connect(wake_across._conninfo(postgres_url), autocommit=True) as connection:
            connection.execute(f"NOTIFY {wake_across.CHANNEL}")
        assert woken.wait(10)
    finally:
        listener.stop()
        wakeup.deliveries.unsubscribe(woken.set)


def test_commits_of_new_work_are_announced(postgres_url):
    with psycopg.connect(wake_across._conninfo(postgres_url), autocommit=True) as connection:
        connection.execute(f"LISTEN {wake_across.CHANNEL}")
        announcer = wake_across.Announcer(postgres_url)
        announcer.start()
        try:
            assert list(connection.notifies(timeout=0.5)) == []  # nothing committed, nothing said
            wakeup.deliveries.notify()  # what a commit of new work does
            [heard] = list(connection.notifies(timeout=10, stop_after=1))
        finally:
            announcer.stop()
    assert heard.channel == wake_across.CHANNEL


def test_a_worker_of_its_own_routes_a_new_lead_long_before_its_poll(
        postgres_url, client, app, settings, receiver):  # noqa: F811 (the fixtures imported above)
    """`servicematch worker` polling every 60 s sends a lead the web process just took within seconds."""
    env = {**os.environ, "SERVICEMATCH_DATABASE_URL": postgres_url, "SERVICEMATCH_ENVIRONMENT": "test",
           "SERVICEMATCH_DATA_KEY": settings.data_key, "SERVICEMATCH_BUYER_URL": receiver.url,
           "SERVICEMATCH_BUYER_NAME": settings.buyer_name, "SERVICEMATCH_BUYER_SECRET": settings.buyer_secret,
           "SERVICEMATCH_SMTP_HOST": "", "SERVICEMATCH_WORKER_POLL_SECONDS": "60"}
    worker = subprocess.Popen([sys.executable, "-m", "servicematch.cli", "worker"], cwd=PROJECT_ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(8)  # started and listening: its first look is behind it, the next poll 60 s away
        body = form_submission(app.state.catalog.find("hvac", "services"), request_id=str(uuid.uuid4()),
                               phone="5125550177")
        assert client.post("/api/submit-form", json=body).status_code == 202
        started = time.monotonic()
        receiver.wait_for(1, timeout=40)
        assert time.monotonic() - started < 40
    finally:
        worker.terminate()
        worker.wait(30)
