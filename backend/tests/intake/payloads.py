"""Valid payloads built from the catalogue, so tests follow the questionnaires as they change."""

from __future__ import annotations

import copy
import uuid
from datetime import UTC, date, datetime, timedelta

from servicematch.catalog.loader import CatalogIndex
from servicematch.catalog.schema import FieldDefinition, ServiceConfig

CONTACT = {
    "first": "Maria", "last": "Garcia", "email": "maria.garcia@example.com", "phone": "5125550142",
    "address1": "500 Congress Ave", "address2": "Suite 200", "city": "Austin", "state": "TX", "zip": "78701",
}
CLICK = {
    "domain_url": "https://servicematch.example/services/hvac?subid1=abc", "externalid": "ext-1",
    "subid1": "abc", "subid2": "", "fbclid": "", "fbp": "fb.1.1700000000.123", "useragent": "Mozilla/5.0 test",
    "ip": "", "trustedform": "https://cert.trustedform.com/0123456789abcdef",
}


def today() -> date:
    return datetime.now(UTC).date()


def years_ago(years: int, *, days: int = 0) -> str:
    """A birth date that makes someone `years` old today (give or take `days`)."""
    now = today()
    try:
        birthday = now.replace(year=now.year - years)
    except ValueError:  # 29 February
        birthday = now.replace(year=now.year - years, day=28)
    return (birthday - timedelta(days=days)).isoformat()


def valid_answer(definition: FieldDefinition) -> str:
    """An answer to one questionnaire field that passes every rule and disqualifies nobody."""
    if definition.options:
        return next(option for option in definition.options if option not in definition.disqualifiers)
    if definition.type == "date":
        bounds = definition.dateValidation
        if bounds:
            return years_ago((bounds.minAge + bounds.maxAge) // 2, days=30)
        if definition.mapping == "dob" or definition.autoComplete == "bday":
            return years_ago(45, days=30)
        return (today() - timedelta(days=40)).isoformat()
    return {
        "email": "ann.lee@example.com", "tel": "(512) 555-0199",
        "address": "500 Congress Ave, Austin, TX 78701", "textarea": "Rear-ended at a light.",
    }.get(definition.type, "Ann" if definition.autoComplete == "given-name" else "Lee")


def lead_form_payload(service: ServiceConfig, **consumer_overrides: str) -> dict:
    """A complete, acceptable /api/submit-form body for a form-flow service."""
    answers = {d.mapping: valid_answer(d) for d in service.fields if d.mapping and d.mapping != "cq20"}
    consumer = {**CONTACT, **service.hiddenParams.model_dump(), **answers, **consumer_overrides}
    return {
        "pid": 16, "sid": 143, "cid": service.cid, "istest": "N", "requestId": str(uuid.uuid4()),
        "consumer": consumer,
        "customquestions": {key: value for key, value in consumer.items() if key.startswith("cq")},
        "click": dict(CLICK),
        "recaptchaToken": "token-from-the-browser",
    }


def call_flow_payload(service: ServiceConfig, **answer_overrides: str) -> dict:
    """A complete, acceptable /api/call-submit body for a call-flow service."""
    answers = {d.id: valid_answer(d) for d in service.fields}
    return {
        "requestId": str(uuid.uuid4()), "vertical": service.vertical, "service": service.id,
        "answers": {**answers, **answer_overrides}, "click": dict(CLICK),
    }


def with_answer(payload: dict, key: str, value: str) -> dict:
    """A copy of a lead-form payload with one consumer answer changed (and repeated in customquestions)."""
    changed = copy.deepcopy(payload)
    changed["consumer"][key] = value
    if key.startswith("cq"):
        changed["customquestions"][key] = value
    return changed


def form_services(index: CatalogIndex) -> list[ServiceConfig]:
    return [service for service in index.catalog.services if service.flow == "form"]


def call_services(index: CatalogIndex) -> list[ServiceConfig]:
    return [service for service in index.catalog.services if service.flow == "call"]


def field_with(service: ServiceConfig, **attributes) -> FieldDefinition:
    return next(d for d in service.fields if all(getattr(d, k) == v for k, v in attributes.items()))
