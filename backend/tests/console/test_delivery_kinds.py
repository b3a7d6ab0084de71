"""A lead's deliveries (to the buyer and providers), its consent receipt and the privacy notices
that follow it are counted apart: on the lead page, in the lead's status, on the dashboard (open
and counted days) and in a provider's leads of the day."""

from __future__ import annotations

from datetime import timedelta

from console_api_support import hvac_payload, move_back
from sqlalchemy import select

from servicematch.delivery.models import Delivery
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.privacy.actions import revoke
from servicematch.reporting.rollup import roll_up

# Its webhook is the local receiver.
PROVIDER = {"name": "Cool Air", "email": "dispatch@coolair.example", "services": ["hvac"], "states": ["TX"],
            "webhookSecret": "s3cret-s3cret-s3cret"}


def _counts(**by_status) -> dict:
    counts = {"pending": 0, "delivered": 0, "rejected": 0, "failed": 0, "skipped": 0, **by_status}
    return {"total": sum(counts.values()), **counts}


def _revoke(app, lead_id: str) -> None:
    with app.state.session_factory() as session:
        revoke(session=session, leads=[session.get(Lead, lead_id)], method="link", request_id=None, now=utcnow())
        session.commit()


def _delivery_summary(dashboard: dict) -> tuple:
    delivery = dashboard["delivery"]
    return ({key: delivery[key] for key in ("total", "delivered", "pending", "failed", "rejected", "skipped")},
            delivery["receipts"], delivery["notices"])


def test_a_leads_receipt_and_revocation_notices_are_counted_apart_from_its_deliveries(admin, app, receiver, worker):
    admin.post("/api/console/providers", json={**PROVIDER, "webhookUrl": receiver.url})
    admin.post("/api/submit-form", json=hvac_payload(app.state.catalog))
    worker.run_until_idle()  # to the buyer and the provider's webhook, and the consumer's receipt
    (item,) = admin.get("/api/console/leads").json()["items"]
    _revoke(app, item["id"])  # a lead.revoked notice to each of the two, waiting to be sent

    # The lead was delivered; the notices waiting are not the lead waiting.
    (listed,) = admin.get("/api/console/leads").json()["items"]
    assert listed["status"] == "delivered"
    assert admin.get("/api/console/leads", params={"status": "pending"}).json()["items"] == []
    lead = admin.get(f"/api/console/leads/{item['id']}").json()
    lead_only = _counts(delivered=2)
    assert lead["deliveryCounts"] == {"leads": lead_only, "receipts": _counts(delivered=1),
                                      "notices": _counts(pending=2), "messages": _counts()}
    carried = sorted((d["recipient"], d["channel"], d["carried"], d["status"]) for d in lead["deliveries"])
    assert carried == [("Buyer", "webhook", "Lead", "delivered"), ("Buyer", "webhook", "Revocation notice", "pending"),
                       ("Consumer", "email", "Consent receipt", "delivered"), ("Cool Air", "webhook", "Lead", "delivered"),
                       ("Cool Air", "webhook", "Revocation notice", "pending")]
    assert _delivery_summary(admin.get("/api/console/dashboard").json()) == (
        lead_only, _counts(delivered=1), _counts(pending=2))
    assert admin.get("/api/console/dashboard").json()["delivery"]["successRate"] == 1.0

    # Two days on, the lead's day is counted; the notices, sent today, are read live.
    worker.run_until_idle()
    session_factory = app.state.session_factory
    move_back(session_factory, 2)
    with session_factory() as session:
        for notice in session.scalars(select(Delivery).where(Delivery.payload_kind == "lead.revoked")):
            notice.created_at += timedelta(days=2)
            notice.completed_at += timedelta(days=2)
        session.commit()
    assert roll_up(session_factory)[1] == 1
    assert _delivery_summary(admin.get("/api/console/dashboard").json()) == (
        lead_only, _counts(delivered=1), _counts(delivered=2))
    # A notice to the provider today is not a lead matched to it today.
    (provider,) = admin.get("/api/console/providers").json()["items"]
    assert provider["leadsToday"] == 0
