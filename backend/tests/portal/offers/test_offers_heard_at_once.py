"""An offer the worker process commits is heard of in the web process at once, through their pipe:
an open portal's event stream looks then, not at its next poll."""

from __future__ import annotations

import threading
import uuid

from delivery_support import form_submission
from fastapi.testclient import TestClient
from sqlalchemy import select

from servicematch.app import create_app
from servicematch.kernel import wakeup
from servicematch.ledger.models import AccountKind, Terms
from servicematch.ledger.terms import TermsChange, change_terms
from servicematch.routing.models import ProviderOffer

WAIT_SECONDS = 30


def test_an_offer_made_in_the_worker_process_is_heard_of_in_the_web_process(app, settings, reviewer):
    # `app` is requested for its clean-up; the served app below shares its database.
    pro = reviewer()
    # The worker process below makes accounts with production's default terms (prepaid, empty):
    # this provider is on credit, as the tests' own processes make it.
    with app.state.session_factory() as session:
        change_terms(session, AccountKind.PROVIDER, pro.provider_id, TermsChange(terms=Terms.CREDIT))
        session.commit()
    heard = threading.Event()
    wakeup.offers.subscribe(heard.set)
    served = create_app(settings.model_copy(update={"worker_enabled": True, "worker_poll_seconds": 600}))
    try:
        with TestClient(served) as client:
            body = form_submission(served.state.catalog.find("hvac", "services"), request_id=str(uuid.uuid4()),
                                   phone="5125550181")
            assert client.post("/api/submit-form", json=body).status_code == 202
            # Nothing in this process writes offers: only the worker's word, through the pipe, sets it.
            assert heard.wait(WAIT_SECONDS)
            with served.state.session_factory() as session:
                [offer] = session.scalars(select(ProviderOffer)).all()
            assert (offer.provider_id, offer.status) == (pro.provider_id, "open")
    finally:
        wakeup.offers.unsubscribe(heard.set)
        served.state.engine.dispose()
