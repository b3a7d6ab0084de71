"""No personal data in any log line: a lead sent through the intake API, routed and delivered to a
local buyer (its consent receipt mailed to a local SMTP server), with every logger at DEBUG, in
JSON; then every line is searched for the consumer's name, phone, e-mail and street."""

from __future__ import annotations

import base64
import logging
import os
import uuid
from pathlib import Path

import pytest
from delivery_fixtures import clock, receiver, session_factory, smtp, worker  # noqa: F401 (fixtures)
from delivery_receivers import HttpReceiver, SmtpReceiver
from delivery_support import BUYER_SECRET, form_submission
from log_capture import captured_lines, json_lines

from servicematch.settings import Settings

# form_submission's consumer, and the forms the phone number may take in a line.
PERSONAL = ("Maria", "Garcia", "maria.garcia@example.com", "5125550166", "512-555-0166", "(512) 555-0166",
            "+15125550166", "500 Congress")
# The stand-in SMTP server (aiosmtpd, "mail.log") logs each command it reads, the consumer's address
# among them: its lines are the test's, not the product's.
STAND_INS = ("mail.log",)


@pytest.fixture
def settings(database_url: str, static_dir: Path,
             receiver: HttpReceiver, smtp: SmtpReceiver) -> Settings:  # noqa: F811 (the fixtures imported above)
    """delivery_fixtures' settings, with no lead held for review: the test's phone number is in
    the range kept for fiction (555-01xx), which the quality gate flags."""
    return Settings(
        environment="test", database_url=database_url, static_dir=static_dir, secret_key="test-secret-key",
        data_key=base64.b64encode(os.urandom(32)).decode(), worker_enabled=False, buyer_url=receiver.url,
        buyer_secret=BUYER_SECRET, buyer_name="Fixed Lead Buyer LLC", smtp_host="127.0.0.1", smtp_port=smtp.port,
        smtp_starttls=False, delivery_timeout_seconds=10, delivery_lease_seconds=30, submit_rate_limit=10_000,
        quality_hold_below=0,
    )


def test_a_lead_from_intake_to_delivery_leaves_no_personal_data_in_any_line(
        client, app, worker, receiver, smtp):  # noqa: F811 (the fixtures imported above)
    with captured_lines("json", level=logging.DEBUG) as buffer:
        body = form_submission(app.state.catalog.find("hvac", "services"), request_id=str(uuid.uuid4()),
                               phone="5125550166")
        answer = client.post("/api/submit-form", json=body)
        assert answer.status_code == 202, answer.text
        worker.run_until_idle()
        [received] = receiver.wait_for(1)
        smtp.wait_for(1)
    assert received.json["consumer"]["email"] == "maria.garcia@example.com"  # it did carry the data
    lines = [line for line in json_lines(buffer) if not line["logger"].startswith(STAND_INS)]
    # At least: intake's "stored lead", and the worker's "delivered" for the buyer and the receipt (DEBUG).
    assert len(lines) >= 3, lines
    assert any(line["level"] == "DEBUG" for line in lines)
    leaks = [(value, line) for line in lines for value in PERSONAL if value in str(line)]
    assert leaks == []
