"""Helpers shared by the delivery tests: a controllable clock and read-backs of the outbox."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select

from servicematch.delivery.models import Delivery, DeliveryAttempt

BUYER_SECRET = "buyer-shared-secret"


class FakeClock:
    """Time that moves only when a test says so, so retry schedules run without sleeping."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)

    def move_to(self, moment: datetime) -> None:
        self.now = max(self.now, moment)


def deliveries_of(session_factory, lead_id: str) -> list[Delivery]:
    """A lead's own deliveries (to the buyer and providers), not its consent receipt."""
    with session_factory() as session:
        return list(session.scalars(select(Delivery).where(Delivery.lead_id == lead_id, Delivery.payload_kind == "lead")
                                    .order_by(Delivery.kind, Delivery.target_key)).all())


def attempts_of(session_factory, delivery_id: str) -> list[DeliveryAttempt]:
    with session_factory() as session:
        return list(session.scalars(select(DeliveryAttempt).where(DeliveryAttempt.delivery_id == delivery_id)
                                    .order_by(DeliveryAttempt.attempted_at)).all())


def form_submission(service, *, request_id: str, phone: str, zip_code: str = "78701") -> dict:
    """A valid POST /api/submit-form body for a catalogue service, as the browser sends it."""
    answers = {}
    for field in service.fields:
        if field.mapping and field.mapping.startswith("cq"):
            allowed = [o for o in field.options or [] if o not in (field.disqualifiers or [])]
            answers[field.mapping] = allowed[0] if allowed else "No details"
    consumer = {
        "first": "Maria", "last": "Garcia", "email": "maria.garcia@example.com", "phone": phone,
        "address1": "500 Congress Ave", "address2": "", "city": "Austin", "state": "TX", "zip": zip_code,
        **service.hiddenParams.model_dump(), **answers,
    }
    return {
        "pid": 16, "sid": 143, "cid": service.cid, "istest": "N", "requestId": request_id,
        "consumer": consumer, "customquestions": answers,
        "click": {"domain_url": "https://servicematch.example/services/hvac", "externalid": "", "subid1": "",
                  "subid2": "", "fbclid": "", "fbp": "", "useragent": "pytest", "ip": "", "trustedform": ""},
    }
