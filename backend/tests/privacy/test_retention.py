"""Retention: personal data erased after the lead period, consent proof deleted after five years."""

from __future__ import annotations

import time
from datetime import timedelta

from click.testing import CliRunner
from privacy_support import CONTACT, database_dump
from sqlalchemy import select

from servicematch.cli import main
from servicematch.delivery.worker import BackgroundWorker
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.kernel.clock import utcnow
from servicematch.privacy.models import LeadErasure, PrivacyRequest, RetentionRun
from servicematch.privacy.requests import start_request
from servicematch.privacy.retention import run_if_due, run_retention
from servicematch.settings import get_settings
from servicematch.workers import make_worker


def test_personal_data_goes_after_the_lead_period_and_consent_proof_after_five_years(
        app, make_lead, settings) -> None:
    lead = make_lead(phone="5125550177")
    factory = app.state.session_factory
    assert settings.lead_retention_days == 1095 and settings.consent_retention_days >= 5 * 365

    early = run_retention(session_factory=factory, settings=settings, now=utcnow() + timedelta(days=1094))
    assert early["leads_erased"] == 0

    counts = run_retention(session_factory=factory, settings=settings, now=utcnow() + timedelta(days=1096))
    assert counts["leads_erased"] == 1
    with factory() as session:
        assert session.get(LeadErasure, lead.id).reason == "retention period"
        dump = database_dump(session, settings)
        assert session.scalar(select(ConsentRecord).where(ConsentRecord.lead_id == lead.id)).consent_text
    for personal in (CONTACT["email"], "5125550177", CONTACT["last"], CONTACT["address1"]):
        assert personal not in dump
    again = run_retention(session_factory=factory, settings=settings, now=utcnow() + timedelta(days=1097))
    assert again["leads_erased"] == 0  # erased once

    gone = run_retention(session_factory=factory, settings=settings,
                         now=utcnow() + timedelta(days=settings.consent_retention_days + 1))
    assert gone["leads_deleted"] == 1
    with factory() as session:
        assert session.get(Lead, lead.id) is None
        assert session.scalar(select(ConsentRecord).where(ConsentRecord.lead_id == lead.id)) is None


def test_unverified_requests_are_closed_within_days_and_old_records_deleted(app, settings) -> None:
    factory = app.state.session_factory
    started = start_request(session_factory=factory, settings=settings, kind="access", channel="web form",
                            email="someone@example.com")
    run_retention(session_factory=factory, settings=settings, now=utcnow() + timedelta(days=2))
    with factory() as session:
        request = session.get(PrivacyRequest, started.request_id)
        assert request.closed_at is not None and "never confirmed" in request.outcome
    run_retention(session_factory=factory, settings=settings, now=utcnow() + timedelta(days=731))
    with factory() as session:
        assert session.get(PrivacyRequest, started.request_id) is None


def test_the_worker_runs_retention_once_a_day(app, settings) -> None:
    factory = app.state.session_factory
    now = utcnow()
    assert run_if_due(session_factory=factory, settings=settings, now=now) is not None
    assert run_if_due(session_factory=factory, settings=settings, now=now + timedelta(hours=23)) is None
    assert run_if_due(session_factory=factory, settings=settings, now=now + timedelta(hours=25)) is not None
    with factory() as session:
        assert len(session.scalars(select(RetentionRun)).all()) == 2


def test_retention_run_command_reports_what_it_did(app, settings, monkeypatch) -> None:
    monkeypatch.setenv("SERVICEMATCH_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("SERVICEMATCH_DATA_KEY", settings.data_key)
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(main, ["retention", "run"])
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    assert "leads erased: 0" in result.output and "leads deleted: 0" in result.output


def test_the_delivery_worker_runs_retention_when_idle(app, settings) -> None:
    factory = app.state.session_factory
    background = BackgroundWorker(make_worker(session_factory=factory, settings=settings))
    background.start()
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with factory() as session:
                if session.scalars(select(RetentionRun)).first() is not None:
                    break
            time.sleep(0.1)
        else:
            raise AssertionError("the worker never ran retention")
    finally:
        background.stop(timeout=15)
