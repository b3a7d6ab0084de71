"""The data key (setting or generated file), and the side effects of storing a lead sharing its transaction."""

from __future__ import annotations

import base64
import stat
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import date

import pytest
from cryptography.exceptions import InvalidTag
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.intake import crypto, service
from servicematch.intake.checks import check_lead_form
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.crypto import DataKeyError, cipher_for, generate_data_key
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.intake.schemas import LeadFormSubmission

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


class RecordingSideEffects:
    """Side effects that run a test's function in the lead's transaction and match no provider."""

    def __init__(self, during: Callable[[Session, Lead], None]) -> None:
        self.during = during

    def on_stored(self, session: Session, lead: Lead) -> list[str]:
        self.during(session, lead)
        return []

    def provider_names(self, session: Session, lead_id: str) -> list[str]:
        return []


def stored_with(app, index, settings, side_effects, lead: Lead) -> service.StoredLead:
    transactions = service.LeadTransactions(session_factory=app.state.session_factory, settings=settings,
                                            index=index, side_effects=side_effects)
    evidence = ConsentEvidence(ip_address="192.0.2.1", user_agent="", page_url="", trustedform_cert_url="",
                               global_privacy_control=False)
    return transactions.store_one(service.NewLead(lead=lead, evidence=evidence))


def built_lead(index, settings) -> Lead:
    hvac = index.find("hvac", "services")
    submission = LeadFormSubmission.model_validate(lead_form_payload(hvac))
    checked = check_lead_form(index=index, service=hvac, submission=submission, today=date.today())
    return service.build_lead(settings=settings, checked=checked, request_id=submission.requestId,
                              request_hash="h", is_test=False, click={}, do_not_sell=False)


def test_side_effects_run_inside_the_lead_transaction(app, index, settings):
    seen = []

    def record(session, lead):
        # Inside the lead's transaction, before its commit: nobody else can see the lead yet.
        with app.state.session_factory() as other:
            committed = other.get(Lead, lead.id) is not None
        seen.append((session.in_transaction() and not committed, lead.request_id))

    lead = built_lead(index, settings)
    stored_with(app, index, settings, RecordingSideEffects(record), lead)
    assert seen == [(True, lead.request_id)]
    assert count(app, Lead) == 1


def test_a_failing_side_effect_rolls_the_lead_back(app, index, settings):
    def refuse(_session, _lead):
        raise RuntimeError("outbox unavailable")

    with pytest.raises(RuntimeError, match="outbox unavailable"):
        stored_with(app, index, settings, RecordingSideEffects(refuse), built_lead(index, settings))
    assert count(app, Lead) == count(app, ConsentRecord) == 0
