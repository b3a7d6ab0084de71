"""The payloads shown in docs/lead-payload.md are accepted as written, so the doc stays true."""

from __future__ import annotations

import json
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "lead-payload.md"


def documented_examples() -> list[dict]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)
    return [json.loads(block) for block in blocks]


def test_the_lead_form_example_is_accepted(client):
    form = documented_examples()[0]
    response = client.post("/api/submit-form", json=form)
    assert response.status_code == 202, response.text
    assert response.json()["requestId"] == form["requestId"]


def test_the_call_flow_example_is_accepted(client):
    form, call = documented_examples()[:2]
    call = {**call, "click": form["click"]}
    response = client.post("/api/call-submit", json=call)
    assert response.status_code == 202, response.text
