"""What the quality gate's tests share: settings with a throwaway data key, the stand-ins, leads sent
through the real intake API, and the gate's read of one of them.

Imported by each test module that needs them (`from .gate_fixtures import ...`), so pytest finds the
fixtures there."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from lead_payloads import hvac_payload
from sqlalchemy import select
from sqlalchemy.orm import joinedload

from servicematch.catalog.loader import CatalogIndex
from servicematch.intake.models import Lead
from servicematch.settings import Settings

from .trustedform_standin import TrustedFormStandIn
from .twilio_standin import TwilioStandIn

# A real-looking Austin number (not 555-01xx, which the gate takes for a made-up one).
AUSTIN_PHONE = "5124783921"
TAB_ID = "tab-5f0c2a9e41b7"


@pytest.fixture
def settings(database_url: str, static_dir: Path, tmp_path: Path) -> Settings:
    # The suite holds nothing by default (conftest.py); these tests are about holds: the default threshold.
    return Settings(environment="test", database_url=database_url, static_dir=static_dir,
                    secret_key="test-secret-key", data_key_file=tmp_path / "data.key", worker_enabled=False,
                    submit_rate_limit=10_000, quality_hold_below=30)


@pytest.fixture
def index(app) -> CatalogIndex:
    return app.state.catalog


@pytest.fixture
def twilio() -> Iterator[TwilioStandIn]:
    standin = TwilioStandIn().start()
    yield standin
    standin.stop()


@pytest.fixture
def trustedform() -> Iterator[TrustedFormStandIn]:
    standin = TrustedFormStandIn().start()
    yield standin
    standin.stop()


def lead_body(index: CatalogIndex, *, phone: str = AUSTIN_PHONE, email: str = "maria.garcia@example.com",
              seconds: float | None = 48.0, tab_id: str | None = TAB_ID, honeypot: str = "",
              **consumer: str) -> dict:
    """An HVAC submission from the form as the site sends it now, with the form's signals."""
    body = hvac_payload(index, phone=phone, email=email)
    body["consumer"].update(consumer)
    body["requestId"] = str(uuid.uuid4())
    signals = {key: value for key, value in
               (("secondsOnForm", seconds), ("tabId", tab_id), ("honeypot", honeypot)) if value is not None}
    body["formSignals"] = signals
    return body


def submit(client, body: dict) -> str:
    """Send a submission through POST /api/submit-form; the stored lead's id."""
    response = client.post("/api/submit-form", json=body)
    assert response.status_code == 202, response.text
    return response.json()["leadId"]


def stored_lead(app, lead_id: str) -> Lead:
    """The lead as routing reads it: with its consent record, detached from the session."""
    with app.state.session_factory() as session:
        lead = session.scalars(select(Lead).where(Lead.id == lead_id).options(joinedload(Lead.consent))).one()
        session.expunge_all()
    return lead
