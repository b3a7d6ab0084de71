"""What happened to a lead: its flags, its deliveries and every attempt, for an operator."""

from __future__ import annotations

from cryptography.exceptions import InvalidTag
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from servicematch.delivery.content import PayloadBuilder
from servicematch.delivery.endpoints import describe_pause, endpoint_key, endpoint_states
from servicematch.delivery.models import Delivery, DeliveryStatus, utcnow
from servicematch.errors import NotFound
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc
from servicematch.kernel.crypto import DataKeyError
from servicematch.kernel.references import parse_reference, shown_reference
from servicematch.settings import Settings
from servicematch.terminal import safe_text


def mask_email(email: str) -> str:
    local, _, domain = email.partition("@")
    return f"{local[:1]}***@{domain}" if domain else "***"


def mask_phone(phone: str) -> str:
    digits = "".join(ch for ch in phone if ch.isdigit())
    return f"***-***-{digits[-4:]}" if len(digits) >= 4 else "***"


def _iso(value) -> str | None:
    value = as_utc(value)
    return value.isoformat(timespec="seconds") if value else None


def _masked_consumer(*, lead: Lead, settings: Settings, payload_builder: PayloadBuilder) -> dict:
    """Enough to recognise the consumer on a call, not enough to leak them from a terminal."""
    try:
        consumer = payload_builder(lead=lead, settings=settings).get("consumer", {})
    except (DataKeyError, InvalidTag, ValueError, KeyError) as exc:
        # The history is still worth showing when the personal data cannot be read.
        return {"error": f"personal data unavailable: {type(exc).__name__}"}
    return {
        "name": f"{consumer.get('first', '')} {consumer.get('last', '')[:1]}.".strip(),
        "email": mask_email(consumer.get("email", "")),
        "phone": mask_phone(consumer.get("phone", "")),
        "city": consumer.get("city", ""),
    }


def find_lead(session: Session, wanted: str) -> Lead:
    """The lead with this requestId or, failing that, this reference (`7K3M-Q9TX`, any case, dash or not)."""
    lead = session.scalars(select(Lead).where(Lead.request_id == wanted)).first()
    if lead is None and (reference := parse_reference(wanted)):
        lead = session.scalars(select(Lead).where(Lead.reference == reference)).first()
    if lead is None:
        raise NotFound(f"No lead with the requestId or reference {wanted}.")
    return lead


def lead_history(
    *, session: Session, request_id: str, settings: Settings, payload_builder: PayloadBuilder
) -> dict:
    """The lead (by requestId or reference) with its deliveries and attempts, personal data masked."""
    lead = find_lead(session, request_id)
    deliveries = session.scalars(
        select(Delivery).where(Delivery.lead_id == lead.id)
        .options(selectinload(Delivery.attempts), selectinload(Delivery.provider))
        .order_by(Delivery.created_at, Delivery.kind, Delivery.target_key)
    ).all()
    # A pending delivery may be held back by its endpoint's circuit breaker, not by its own schedule.
    waiting = {d.id: endpoint_key(d.kind, d.target_key) for d in deliveries if d.status == DeliveryStatus.PENDING}
    pauses, now = endpoint_states(session, waiting.values()), utcnow()
    return {
        "lead": {
            "id": lead.id, "reference": shown_reference(lead.reference), "requestId": lead.request_id,
            "createdAt": _iso(lead.created_at),
            "vertical": lead.vertical, "service": lead.service, "cid": lead.cid,
            "state": lead.state, "zip": lead.zip, "isTest": lead.is_test,
            "isDuplicate": lead.is_duplicate, "doNotSell": lead.do_not_sell,
            "consumer": _masked_consumer(lead=lead, settings=settings, payload_builder=payload_builder),
        },
        "deliveries": [
            {
                "id": d.id, "kind": d.kind, "provider": d.provider.name if d.provider else None,
                "status": d.status, "attemptCount": d.attempt_count, "lastError": d.last_error,
                "nextAttemptAt": _iso(d.next_attempt_at) if d.status == "pending" else None,
                "completedAt": _iso(d.completed_at),
                "endpointPause": describe_pause(pauses.get(waiting.get(d.id, "")), now),
                "attempts": [
                    {"at": _iso(a.attempted_at), "target": a.target, "statusCode": a.status_code,
                     "error": a.error, "durationMs": a.duration_ms, "outcome": a.outcome,
                     "responseBody": a.response_body}
                    for a in d.attempts
                ],
            }
            for d in deliveries
        ],
    }


def render_history(history: dict) -> str:
    """The history as an operator reads it in a terminal: consumers' answers and receivers' bodies
    are untrusted, so each line shows their control characters escaped, never interpreted."""
    lead = history["lead"]
    flags = [name for name, on in (("test", lead["isTest"]), ("duplicate", lead["isDuplicate"]),
                                   ("do-not-sell", lead["doNotSell"])) if on]
    consumer = lead["consumer"]
    who = consumer.get("error") or ", ".join(
        v for v in (consumer["name"], consumer["email"], consumer["phone"], consumer["city"]) if v)
    lines = [
        f"Lead {lead['reference']}  requestId {lead['requestId']}  (id {lead['id']})",
        (f"  created {lead['createdAt']}  {lead['vertical']}/{lead['service']}  cid {lead['cid']}  "
        f"{lead['state'] or '-'} {lead['zip'] or '-'}  flags: {', '.join(flags) or 'none'}"),
        f"  consumer: {who}",
        "",
    ]
    if not history["deliveries"]:
        lines.append("No deliveries (no buyer URL set and no provider matched).")
    for d in history["deliveries"]:
        target = d["kind"] + (f" ({d['provider']})" if d["provider"] else "")
        lines.append(f"Delivery {d['id']}  {target}: {d['status'].upper()} after "
                     f"{d['attemptCount']} attempt(s)")
        if d["nextAttemptAt"]:
            lines.append(f"  next attempt at {d['nextAttemptAt']}")
        if pause := d.get("endpointPause"):
            lines.append(f"  endpoint paused until {pause['pausedUntil']} after {pause['consecutiveFailures']} "
                         f"failures in a row ({pause['lastError']}); a successful probe resumes it")
        if d["lastError"]:
            lines.append(f"  last error: {d['lastError']}")
        for a in d["attempts"]:
            answer = f"HTTP {a['statusCode']}" if a["statusCode"] else (a["error"] or "-")
            lines.append(f"  {a['at']}  {a['outcome']:<9}  {answer}  {a['durationMs']} ms  {a['target']}")
            if a["outcome"] == "rejected" and a["responseBody"]:
                lines.append(f"    body: {a['responseBody'][:200]}")
    return "\n".join(safe_text(line) for line in lines)
