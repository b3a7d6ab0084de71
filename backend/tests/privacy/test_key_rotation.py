"""Re-encryption in batches (privacy/key_rotation.py) while the site runs: killed half-way it carries
on where it stopped; intake goes on taking leads meanwhile; a row changed between a batch's read and
its write keeps the newer value."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from cli_support import shell_cli
from encrypted_rows import insert_leads, new_key, raw, values
from lead_payloads import hvac_payload
from sqlalchemy import update

from servicematch.db.session import make_engine
from servicematch.intake.models import Lead
from servicematch.kernel.crypto import cipher_for, key_id_of
from servicematch.ops.key_commands import keys
from servicematch.privacy.key_rotation import (
    LEAD_PERSONAL_DATA,
    pending,
    rotate_batch,
    rotate_column,
)
from servicematch.settings import Settings

FIRST, SECOND = new_key(), new_key()
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def settings(database_url: str, static_dir: Path) -> Settings:
    """As deployed for a rotation: the new key current, the earlier one listed."""
    return Settings(environment="test", database_url=database_url, static_dir=static_dir, secret_key="test-secret-key",
                    data_key=SECOND, data_keys_old=FIRST, worker_enabled=False, submit_rate_limit=10_000)


def made_by_each(engine) -> dict[str, int]:
    counts = {"first": 0, "second": 0}
    for blob in values(engine).values():
        counts["first" if blob[1:5] == key_id_of(raw(FIRST)) else "second"] += 1
    return counts


def readable_with_second_alone(engine, settings: Settings) -> bool:
    alone = cipher_for(settings.model_copy(update={"data_keys_old": ""}))
    return all(alone.decrypt(blob, lead_id=lead_id)["contact"]["city"] == "Austin"
               for lead_id, blob in values(engine).items())


def test_a_rotation_killed_half_way_carries_on_where_it_stopped(app, settings, monkeypatch):
    insert_leads(app.state.engine, FIRST, 400)
    script = ("from servicematch.ops.key_commands import keys\n"
              "keys(['rotate', '--batch-size', '10', '--pause-ms', '40', '--progress-seconds', '0.1'])")
    env = {**os.environ, "SERVICEMATCH_DATABASE_URL": settings.database_url, "SERVICEMATCH_DATA_KEY": SECOND,
           "SERVICEMATCH_DATA_KEYS_OLD": FIRST, "SERVICEMATCH_ENVIRONMENT": "test"}
    rotation = subprocess.Popen([sys.executable, "-u", "-c", script], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
    try:
        for line in rotation.stdout:
            if line.startswith("re-encrypted "):  # the first progress line: some batches are done
                break
        rotation.send_signal(signal.SIGKILL)
    finally:
        rotation.wait(30)
        rotation.stdout.close()
    half_way = made_by_each(app.state.engine)
    assert half_way["second"] > 0 and half_way["first"] > 0, half_way

    with shell_cli(monkeypatch, settings, command=keys, env={"DATA_KEYS_OLD": FIRST}) as cli:
        carried_on = cli("rotate").output.splitlines()
    assert carried_on[0].startswith(f"re-encrypting under data key {key_id_of(raw(SECOND)).hex()}: "
                                    f"{half_way['first']:,} values to do")
    assert made_by_each(app.state.engine) == {"first": 0, "second": 400}
    assert readable_with_second_alone(app.state.engine, settings)


def test_intake_takes_leads_while_a_rotation_runs(app, client, settings):
    insert_leads(app.state.engine, FIRST, 600)
    engine = make_engine(settings.database_url)  # the command's own engine, as another process has
    done = threading.Event()

    def rotate() -> None:
        try:
            rotate_column(engine, LEAD_PERSONAL_DATA, cipher_for(settings), batch_size=20)
        finally:
            done.set()

    rotation = threading.Thread(target=rotate)
    rotation.start()
    answers = []
    try:
        while not done.is_set() or len(answers) < 5:
            answers.append(client.post("/api/submit-form", json=hvac_payload(
                app.state.catalog, phone=f"5125550{len(answers):03d}")).status_code)
    finally:
        rotation.join(120)
        engine.dispose()
    assert set(answers) == {202}
    assert made_by_each(app.state.engine) == {"first": 0, "second": 600 + len(answers)}
    assert pending(app.state.engine, LEAD_PERSONAL_DATA, cipher_for(settings)) == 0
    assert readable_with_second_alone(app.state.engine, settings)


class ErasedMeanwhile:
    """The cipher, but while the batch is being re-encrypted the privacy room erases one of its leads."""

    def __init__(self, settings: Settings, engine, victim: str) -> None:
        self.cipher, self.engine, self.victim = cipher_for(settings), engine, victim
        self.erased = self.cipher.encrypt({"contact": {"city": ""}, "answers": {}}, lead_id=victim)

    @property
    def header(self) -> bytes:
        return self.cipher.header

    def reseal(self, blob: bytes, name: str) -> bytes:
        if name == self.victim:
            with self.engine.begin() as connection:
                connection.execute(update(Lead).where(Lead.id == name).values(personal_data=self.erased))
        return self.cipher.reseal(blob, name)


def test_a_lead_changed_between_read_and_write_keeps_the_newer_value(app, settings):
    lead_ids = insert_leads(app.state.engine, FIRST, 3)
    meanwhile = ErasedMeanwhile(settings, app.state.engine, victim=lead_ids[1])
    batch = rotate_batch(app.state.engine, LEAD_PERSONAL_DATA, meanwhile, after="", size=10)
    assert (batch.rotated, batch.changed_meanwhile, batch.unreadable) == (2, 1, [])
    assert values(app.state.engine)[lead_ids[1]] == meanwhile.erased
    assert made_by_each(app.state.engine) == {"first": 0, "second": 3}
