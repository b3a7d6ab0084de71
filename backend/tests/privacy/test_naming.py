"""The consumer is told the truth: the consent receipt, the stop page and the access report name
exactly the companies that received the contact details. A provider whose offer was accepted in
the portal is one of them; one whose offer is open, declined, expired or withdrawn is not. A buyer
or a webhook that refused the lead got it all the same, and is named. Rated providers come with
their rating."""

from __future__ import annotations

from offer_rows import add_offer, portal_provider
from privacy_support import CONTACT, text_of, wait_for_mail

from servicematch.intake.models import Lead
from servicematch.intake.status_token import status_token
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.portal.models import ProviderReview
from servicematch.privacy.links import sign_link
from servicematch.privacy.report import lead_report
from servicematch.routing.models import OfferStatus

EVERY_STATUS = {OfferStatus.ACCEPTED: "Took It Roofing", OfferStatus.OPEN: "Still Thinking Roofing",
                OfferStatus.DECLINED: "Said No Roofing", OfferStatus.EXPIRED: "Too Late Roofing",
                OfferStatus.WITHDRAWN: "Withdrawn Roofing"}
NOT_RECEIVED = sorted(name for status, name in EVERY_STATUS.items() if status != OfferStatus.ACCEPTED)


def _offers_in_every_status(app, lead_id: str) -> dict[str, str]:
    """One portal provider per offer status; the accepted one rated 5 and 4 (and 1, hidden)."""
    with app.state.session_factory() as session:
        ids = {}
        for status, name in EVERY_STATUS.items():
            provider = portal_provider(session, name)
            add_offer(session, lead_id=lead_id, provider_id=provider.id, status=status, at=utcnow())
            ids[status] = provider.id
        for stars, hidden in ((5, None), (4, None), (1, utcnow())):
            session.add(ProviderReview(id=new_id(), provider_id=ids[OfferStatus.ACCEPTED], stars=stars,
                                       hidden_at=hidden, created_at=utcnow()))
        session.commit()
    return ids


def _report(app, settings, lead_id: str) -> dict:
    with app.state.session_factory() as session:
        return lead_report(session=session, settings=settings, lead=session.get(Lead, lead_id))


def test_the_receipt_names_the_accepted_provider_with_its_rating_and_no_one_else_offered(
        app, make_lead, providers, worker, clock, smtp) -> None:
    lead = make_lead()
    _offers_in_every_status(app, lead.id)
    worker.run_until_idle()
    text = text_of(wait_for_mail(smtp, CONTACT["email"])[0])
    named = [line[4:] for line in text.splitlines() if line.startswith("  - ")]
    assert named == ["Acme Home Quotes LLC", "Cool Air", "Lone Star Heating",
                     "Took It Roofing (rated 4.5 out of 5 from 2 reviews)"]
    assert not any(name in text for name in NOT_RECEIVED)
    # An offer still open: the consumer is told a provider may yet take the request on.
    assert "If one of them takes it on, we will e-mail you its name." in text


def test_the_stop_page_and_the_access_report_name_exactly_who_received_the_details(
        app, client, make_lead, providers, worker, clock, settings, buyer) -> None:
    buyer.mode = "reject"  # the lead buyer refuses the lead: it received the details all the same
    lead = make_lead()
    _offers_in_every_status(app, lead.id)
    worker.run_until_idle()
    clock.advance(seconds=1)
    expected = ["Acme Home Quotes LLC", "Cool Air", "Lone Star Heating", "Took It Roofing"]

    token = sign_link(settings=settings, purpose="stop", lead_id=lead.id)
    preview = client.post("/api/privacy/stop/preview", json={"token": token})
    assert preview.status_code == 200, preview.text
    assert preview.json()["recipients"] == expected

    report = _report(app, settings, lead.id)
    assert report["receivedBy"] == expected
    # With what each did: the fixed buyer is not told to discard (only an auction's post is).
    assert [(c["name"], c["did"], c["inWords"]) for c in report["companies"]][:2] == [
        ("Acme Home Quotes LLC", "refused", "Was sent your contact details but turned your request down."),
        ("Cool Air", "received", "Received your request. It may contact you about it.")]
    # The full log still shows the refused post, with its status, and the portal hand-over.
    rows = {(row["recipient"], row["channel"], row["status"]) for row in report["deliveries"]}
    assert ("Acme Home Quotes LLC", "lead buyer (web)", "rejected") in rows
    assert ("Took It Roofing", "provider (accepted in its portal)", "delivered") in rows
    assert not any(row["recipient"] in NOT_RECEIVED for row in report["deliveries"])


def test_a_stopped_lead_names_nobody_who_never_got_it(app, client, make_lead, providers, worker, clock,
                                                     settings) -> None:
    lead = make_lead()
    token = sign_link(settings=settings, purpose="stop", lead_id=lead.id)
    with app.state.session_factory() as session:
        provider = portal_provider(session, "Still Thinking Roofing")
        add_offer(session, lead_id=lead.id, provider_id=provider.id, status=OfferStatus.OPEN, at=utcnow())
        session.commit()
    assert client.post("/api/privacy/stop", json={"token": token}).status_code == 200
    worker.run_until_idle()
    clock.advance(seconds=1)
    report = _report(app, settings, lead.id)
    assert report["receivedBy"] == []
    assert not [row for row in report["deliveries"] if row["what"] == "lead" and row["status"] == "delivered"]


def test_the_thank_you_status_names_the_accepted_provider_with_its_rating(
        app, client, make_lead, providers, worker, clock, settings) -> None:
    lead = make_lead()
    _offers_in_every_status(app, lead.id)
    worker.run_until_idle()
    clock.advance(seconds=1)
    status = client.get(f"/api/leads/{lead.request_id}/status",
                        headers={"X-Status-Token": status_token(settings, lead.id)}).json()
    assert status["finished"] is True
    assert status["companies"] == ["Acme Home Quotes LLC", "Cool Air", "Lone Star Heating", "Took It Roofing"]
    assert status["ratings"] == [{"company": "Took It Roofing", "average": 4.5, "count": 2}]
    # The open offer: one more pro may take the request on; the page says so, naming nobody.
    assert status["offered"] == 1
