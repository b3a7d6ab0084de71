"""The data key (setting or generated file), and the side effects of storing a lead sharing its transaction."""

from __future__ import annotations

import base64
import stat
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import date

import pytest
from cryptography.exceptions import InvalidTag
from sqlalchemy import event, func, select

from servicematch.delivery.models import Delivery
from servicematch.intake import service
from servicematch.intake.checks import check_lead_form
from servicematch.intake.models import ConsentRecord, Lead, LeadEvent
from servicematch.intake.schemas import LeadFormSubmission
from servicematch.kernel import crypto
from servicematch.kernel.crypto import DataKeyError, cipher_for, generate_data_key
from servicematch.routing.models import Auction

from .payloads import lead_form_payload


def test_a_missing_key_file_is_generated_private_and_then_reused(settings, tmp_path):
    key_file = tmp_path / "keys" / "data.key"
    local = settings.model_copy(update={"data_key_file": key_file})
    blob = cipher_for(local).encrypt({"email": "a@example.com"}, lead_id="lead-1")
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(base64.b64decode(key_file.read_text())) == 32
    assert cipher_for(local.model_copy(update={"brand_name": "Other"})).decrypt(blob, lead_id="lead-1") == {
        "email": "a@example.com"}


def test_racing_first_uses_all_get_the_same_complete_key(tmp_path):
    key_file = tmp_path / "data.key"
    start = threading.Barrier(16)

    def first_use() -> bytes:
        start.wait()
        return crypto._key_from_file(key_file)

    with ThreadPoolExecutor(max_workers=16) as pool:
        keys = set(pool.map(lambda _: first_use(), range(16)))
    assert len(keys) == 1 and len(keys.pop()) == 32
    assert [path.name for path in tmp_path.iterdir()] == ["data.key"]


def test_a_configured_key_wins_over_the_file(settings, tmp_path):
    configured = settings.model_copy(update={"data_key": generate_data_key(), "data_key_file": tmp_path / "unused"})
    blob = cipher_for(configured).encrypt({"x": 1}, lead_id="l")
    assert not (tmp_path / "unused").exists()
    other = settings.model_copy(update={"data_key": generate_data_key()})
    with pytest.raises(InvalidTag):
        cipher_for(other).decrypt(blob, lead_id="l")


@pytest.mark.parametrize("bad", ["not base64!", base64.b64encode(b"short").decode()])
def test_a_malformed_key_is_refused_clearly(settings, bad):
    with pytest.raises(DataKeyError, match="SERVICEMATCH_DATA_KEY"):
        cipher_for(settings.model_copy(update={"data_key": bad}))


def count(app, model) -> int:
    with app.state.session_factory() as session:
        return session.scalar(select(func.count()).select_from(model))


def built_lead(index, settings) -> Lead:
    hvac = index.find("hvac", "services")
    submission = LeadFormSubmission.model_validate(lead_form_payload(hvac))
    checked = check_lead_form(index=index, service=hvac, submission=submission, today=date.today())
    return service.build_lead(settings=settings, checked=checked, request_id=submission.requestId,
                              request_hash="h", is_test=False, click={}, do_not_sell=False)


def test_intake_commits_the_lead_its_consent_and_one_accepted_event_and_nothing_else(app, client, index):
    """Who gets the lead is routing's business, after the answer: no delivery, no receipt, no auction."""
    response = client.post("/api/submit-form", json=lead_form_payload(index.find("hvac", "services")))
    assert response.status_code == 202
    lead_id = response.json()["leadId"]
    with app.state.session_factory() as session:
        [event] = session.scalars(select(LeadEvent).where(LeadEvent.lead_id == lead_id)).all()
    assert (event.type, event.done_at) == ("lead.accepted", None)
    assert count(app, Lead) == count(app, ConsentRecord) == 1
    assert count(app, Delivery) == count(app, Auction) == 0


def test_a_lead_costs_at_most_five_statements_and_one_commit(app, client, index, settings):
    """Counted on the app's own engine while one lead is submitted (rate limits live off the database)."""
    statements: list[str] = []
    commits: list[bool] = []
    engine = app.state.engine
    on_statement = lambda *args: statements.append(args[2])
    on_commit = lambda _conn: commits.append(True)
    client.get("/api/health")  # the app is started and warm: what is counted is the lead alone
    # The partners list a consent records is read from an in-process cache, refreshed every few
    # seconds off the lead's transaction (catalog/partners.py): warm, it costs the lead nothing.
    client.get("/api/marketing-partners")
    event.listen(engine, "before_cursor_execute", on_statement)
    event.listen(engine, "commit", on_commit)
    try:
        response = client.post("/api/submit-form", json=lead_form_payload(index.find("hvac", "services")))
    finally:
        event.remove(engine, "before_cursor_execute", on_statement)
        event.remove(engine, "commit", on_commit)
    assert response.status_code == 202
    writes = [s for s in statements if not s.lstrip().upper().startswith(("PRAGMA", "BEGIN", "SAVEPOINT"))]
    assert len(writes) <= 5, writes
    assert len(commits) == 1
