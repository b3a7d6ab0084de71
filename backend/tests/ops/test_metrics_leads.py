"""servicematch_leads_total{outcome}: every submission to the lead routes counted once, accepted
or refused by reason, whoever refused it (the route, the rate limit, the body's validation)."""

from __future__ import annotations

import copy
from contextlib import contextmanager

from fastapi.testclient import TestClient
from lead_payloads import hvac_payload
from prometheus_client.parser import text_string_to_metric_families

from servicematch.app import create_app
from servicematch.schema.registry import metadata


def leads(app) -> dict[str, float]:
    """servicematch_leads_total by outcome, as the scraper reads it."""
    text = TestClient(app, client=("127.0.0.1", 50000)).get("/metrics").text
    return {sample.labels["outcome"]: sample.value for family in text_string_to_metric_families(text)
            for sample in family.samples if sample.name == "servicematch_leads_total"}


def counted(app, submit) -> dict[str, float]:
    """What `submit()` added to each outcome (counts are per process, so compared before and after)."""
    before = leads(app)
    submit()
    after = leads(app)
    return {outcome: after[outcome] - before.get(outcome, 0) for outcome in after
            if after[outcome] != before.get(outcome, 0)}


@contextmanager
def app_with(settings, **changes):
    """An app of changed settings on the test database, emptied afterwards as the `app` fixture's is."""
    application = create_app(settings.model_copy(update=changes))
    try:
        yield application
    finally:
        application.state.lead_store.stop()
        with application.state.engine.begin() as connection:
            for table in reversed(metadata.sorted_tables):
                connection.execute(table.delete())
        application.state.engine.dispose()


def test_an_accepted_lead_and_each_refusal_are_counted_by_outcome(app):
    client = TestClient(app, client=("203.0.113.20", 50000))
    body = hvac_payload(app.state.catalog)

    def post(path: str, payload: dict, status: int):
        return lambda: _expect(client.post(path, json=payload), status)

    assert counted(app, post("/api/submit-form", body, 202)) == {"accepted": 1}
    reused = copy.deepcopy(body)
    reused["consumer"]["city"] = "Dallas"
    assert counted(app, post("/api/submit-form", reused, 409)) == {"request_id_reused": 1}
    assert counted(app, post("/api/submit-form", {"requestId": "x"}, 422)) == {"invalid": 1}
    assert counted(app, post("/api/call-submit", {}, 422)) == {"invalid": 1}
    unknown = hvac_payload(app.state.catalog)
    unknown["consumer"]["category"] = "no-such-category"
    assert counted(app, post("/api/submit-form", unknown, 404)) == {"unknown_service": 1}
    # A lookup is not a lead.
    assert counted(app, post("/api/validate", {"type": "email", "value": "a@example.com"}, 200)) == {}


def test_a_submission_over_the_rate_limit_is_counted_as_such(settings):
    with app_with(settings, submit_rate_limit=1) as app:
        client = TestClient(app, client=("203.0.113.21", 50000))
        _expect(client.post("/api/submit-form", json=hvac_payload(app.state.catalog)), 202)
        assert counted(app, lambda: _expect(client.post("/api/submit-form", json=hvac_payload(
            app.state.catalog, phone="5125550177")), 429)) == {"rate_limited": 1}


def test_a_submission_recaptcha_does_not_vouch_for_is_counted_as_such(settings):
    # No token at all: refused before any call to the verification service.
    with app_with(settings, recaptcha_secret_key="test-secret", recaptcha_verify_url="http://127.0.0.1:9/") as app:
        client = TestClient(app, client=("203.0.113.22", 50000))
        assert counted(app, lambda: _expect(client.post("/api/submit-form", json=hvac_payload(app.state.catalog)),
                                            400)) == {"recaptcha_failed": 1}


def _expect(answer, status: int) -> None:
    assert answer.status_code == status, answer.text
