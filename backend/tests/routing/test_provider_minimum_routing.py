"""A provider's minimum quality score when a lead is routed: one the lead is under gets nothing."""

from __future__ import annotations

import pytest
from delivery_support import deliveries_of

from servicematch.intake.models import Lead
from servicematch.routing.reports import waterfall


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"buyer_url": ""})


def test_a_provider_whose_minimum_the_lead_is_under_gets_nothing_and_a_pass_says_why(
        app, make_lead, add_provider, session_factory):
    picky = add_provider("Picky Air", min_quality=100)
    easy = add_provider("Easy Air", min_quality=0)
    lead = make_lead()
    with session_factory() as session:
        score = session.get(Lead, lead.id).quality_score
        steps = waterfall(session, lead.id)
    assert score is not None and score < 100
    sent_to = {d.provider_id for d in deliveries_of(session_factory, lead.id) if d.provider_id}
    assert easy.id in sent_to and picky.id not in sent_to
    assert {"kind": "pass", "detail": f"Provider Picky Air: quality score {score} is under its minimum of 100"} in [
        {"kind": s["kind"], "detail": s["detail"]} for s in steps]
