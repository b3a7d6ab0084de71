"""A lead's reference (7K3M-Q9TX, as the consumer is shown it) in the lead list, on the lead page,
on the credits page and in the CSV export; the export's providers that accepted the lead and their
charges; an admin's look at the lead list on the audit log, without personal data."""

from __future__ import annotations

import csv
import io
import re

from money_support import accept_offer, store_lead
from sqlalchemy import select

from servicematch.console.models import AuditEntry
from servicematch.delivery.models import Provider
from servicematch.kernel.clock import utcnow
from servicematch.kernel.references import shown_reference
from servicematch.portal import credits
from servicematch.routing.models import OfferStatus, ProviderOffer

SHOWN = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$")


def _provider(app, name: str) -> str:
    with app.state.session_factory() as session:
        provider = Provider(name=name, contact_email="dispatch@example.com", services=["hvac"], states=["TX"],
                            credit_cap_percent=100)
        session.add(provider)
        session.commit()
        return provider.id


def _audit(app, action: str) -> list[AuditEntry]:
    with app.state.session_factory() as session:
        return list(session.scalars(select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id)))


def test_the_list_and_the_lead_page_show_the_reference_with_its_dash(admin, app):
    lead = store_lead(app)
    (item,) = admin.get("/api/console/leads").json()["items"]
    assert item["reference"] == shown_reference(lead.reference) and SHOWN.match(item["reference"])
    assert admin.get(f"/api/console/leads/{lead.id}").json()["reference"] == item["reference"]


def test_the_credits_page_shows_the_reference_as_the_consumer_reads_it(admin, app):
    provider_id = _provider(app, "Cool Air LLC")
    lead = store_lead(app)
    offer_id = accept_offer(app, lead_id=lead.id, provider_id=provider_id)
    with app.state.session_factory() as session:
        credits.request_credit(session, app.state.settings, session.get(Provider, provider_id), offer_id,
                               credits.CreditAsk(reason="wrong_phone", detail=None), now=utcnow())
        session.commit()
    (credit,) = admin.get("/api/console/credits").json()["items"]
    assert credit["leadReference"] == shown_reference(lead.reference)
    assert "-" in credit["leadReference"]


def test_the_export_has_the_reference_and_the_providers_that_accepted_with_their_charges(admin, app):
    first, second = _provider(app, "Cool Air LLC"), _provider(app, "Fix-It Heating")
    declined = _provider(app, "Never Mind Inc")
    lead = store_lead(app)
    other = store_lead(app, phone="5125550199", email="someone.else@example.com")
    accept_offer(app, lead_id=lead.id, provider_id=first, price_cents=4500)
    accept_offer(app, lead_id=lead.id, provider_id=second, price_cents=3950)
    with app.state.session_factory() as session:
        offer = session.scalar(select(ProviderOffer).where(ProviderOffer.provider_id == second))
        offer.decided_at = offer.decided_at.replace(year=offer.decided_at.year + 1)  # accepted after the first
        session.add(ProviderOffer(lead_id=lead.id, provider_id=declined, status=OfferStatus.DECLINED,
                                  price_cents=4500, expires_at=utcnow(), decided_at=utcnow()))
        session.commit()

    answer = admin.get("/api/console/leads.csv")
    assert answer.status_code == 200, answer.text
    header, *_ = csv.reader(io.StringIO(answer.text))
    assert header[-3:] == ["reference", "providers", "providerCharges"]  # after the columns there were
    rows = {row["requestId"]: row for row in csv.DictReader(io.StringIO(answer.text))}
    sold = rows[lead.request_id]
    assert sold["reference"] == shown_reference(lead.reference)
    assert (sold["providers"], sold["providerCharges"]) == ("Cool Air LLC; Fix-It Heating", "45.00; 39.50")
    unsold = rows[other.request_id]
    assert unsold["reference"] == shown_reference(other.reference)
    assert (unsold["providers"], unsold["providerCharges"]) == ("", "")


def test_an_admins_look_at_the_lead_list_is_audited_with_its_filters_and_no_personal_data(admin, app):
    lead = store_lead(app)
    admin.get("/api/console/leads", params={"service": "hvac", "q": "maria.garcia@example.com"})
    admin.get("/api/console/leads", params={"q": "(512) 555-0142"})
    admin.get("/api/console/leads", params={"q": lead.reference.lower()})
    entries = _audit(app, "lead.list")
    assert [entry.detail["filters"] for entry in entries] == [
        {"service": "hvac", "q": "(an e-mail address)"}, {"q": "(a phone number)"},
        {"q": shown_reference(lead.reference)}]
    assert [entry.detail["shown"] for entry in entries] == [1, 1, 1]
    text = repr([(entry.target, entry.detail) for entry in entries])
    assert not any(personal in text for personal in ("maria", "Maria", "Garcia", "555", "0142"))

    # The export keeps no searched-for contact details either.
    admin.get("/api/console/leads.csv", params={"q": "maria.garcia@example.com"})
    (export,) = _audit(app, "lead.export")
    assert export.detail == {"filters": {"q": "(an e-mail address)"}}


def test_an_analysts_masked_list_is_not_on_the_audit_log(analyst, app):
    store_lead(app)
    (item,) = analyst.get("/api/console/leads").json()["items"]
    assert item["email"] == "m***@example.com"
    assert _audit(app, "lead.list") == []
