"""Endpoints and their circuit breaker: pause a receiver that keeps failing, probe it, resume it.

An endpoint is where sends go: the buyer, one provider's webhook, or the SMTP server. After
`SERVICEMATCH_ENDPOINT_FAILURE_THRESHOLD` failures in a row (no answer, 5xx, 408, 429, a
redirect) the endpoint is paused: its deliveries stay pending and none is sent. When the pause
runs out, one delivery goes as a probe; its success resumes the endpoint, its failure pauses it
again for twice as long (at most MAX_PAUSE_SECONDS). The state lives in the database, so every
worker honours it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, bindparam, or_, select, true, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, object_session

from servicematch.delivery.models import Delivery, DeliveryEndpoint, Provider, TargetKind
from servicematch.kernel.clock import as_utc
from servicematch.outbound.outcome import SendResult
from servicematch.settings import Settings

BUYER = "buyer"
SMTP = "smtp"
MAX_PAUSE_SECONDS = 30 * 60


def endpoint_key(kind: str, target_key: str) -> str:
    """The endpoint a delivery is sent to."""
    if kind == TargetKind.BUYER:
        return BUYER
    if kind in (TargetKind.PROVIDER_EMAIL, TargetKind.CONSUMER_EMAIL):
        return SMTP
    # "webhook:<provider id>", also at the end of a privacy notice's key ("lead.revoked:webhook:<id>").
    return target_key[target_key.find("webhook:"):] if "webhook:" in target_key else target_key


def webhook_endpoint(provider_id: str) -> str:
    return f"webhook:{provider_id}"


def deliveries_of_endpoint(key: str):
    """A SQL condition selecting the deliveries sent to endpoint `key`."""
    if key == BUYER:
        return Delivery.kind == TargetKind.BUYER
    if key == SMTP:
        return Delivery.kind.in_((TargetKind.PROVIDER_EMAIL, TargetKind.CONSUMER_EMAIL))
    return and_(Delivery.kind == TargetKind.PROVIDER_WEBHOOK,
                or_(Delivery.target_key == key, Delivery.target_key.like(f"%:{key}")))


def not_sent_to(keys: Iterable[str]):
    """A SQL condition leaving out the deliveries of these endpoints (True when there are none)."""
    conditions = [deliveries_of_endpoint(key) for key in sorted(set(keys))]
    return ~or_(*conditions) if conditions else true()


@dataclass(frozen=True)
class Breakers:
    paused: frozenset[str]
    probe_due: frozenset[str]


# Run every round of sends, so built once; on the table, not through the ORM's bulk update.
_ENDPOINTS = DeliveryEndpoint.__table__
_PAUSED = select(_ENDPOINTS.c.key, _ENDPOINTS.c.paused_until).where(_ENDPOINTS.c.paused_until.is_not(None))
_HEALTHY_AGAIN = (
    update(_ENDPOINTS).where(_ENDPOINTS.c.key.in_(bindparam("keys", expanding=True)),
                             or_(_ENDPOINTS.c.consecutive_failures > 0, _ENDPOINTS.c.paused_until.is_not(None)))
    .values(consecutive_failures=0, paused_until=None, last_error=None,
            updated_at=bindparam("now", type_=_ENDPOINTS.c.updated_at.type)))


def read_breakers(session: Session, now: datetime) -> Breakers:
    """Which endpoints are paused now, and which have a pause that ran out (a probe may go)."""
    rows = session.execute(_PAUSED).all()
    return Breakers(paused=frozenset(key for key, until in rows if as_utc(until) > now),
                    probe_due=frozenset(key for key, until in rows if as_utc(until) <= now))


def take_probe(session: Session, key: str, *, now: datetime, lease_seconds: float) -> bool:
    """Claim the right to send one probe to a paused endpoint; False if another worker has it."""
    taken = session.execute(
        update(DeliveryEndpoint)
        .where(DeliveryEndpoint.key == key, DeliveryEndpoint.paused_until <= now)
        .values(paused_until=now + timedelta(seconds=lease_seconds))
        .execution_options(synchronize_session=False)
    ).rowcount
    return taken == 1


def record_answers(session: Session, answers: list[tuple[str, SendResult]], *, now: datetime,
                   settings: Settings) -> None:
    """Update each endpoint's failure streak from a batch of results, in the order they came."""
    streaks: dict[str, tuple[bool, int, str | None]] = {}  # key -> (reset first, failures, error)
    for key, result in answers:
        if not result.sent:
            continue
        reset, failures, error = streaks.get(key, (False, 0, None))
        if result.endpoint_failed:
            streaks[key] = (reset, failures + 1, result.error or f"HTTP {result.status_code}")
        else:
            streaks[key] = (True, 0, None)
    healthy = [key for key, (_, failures, _) in streaks.items() if failures == 0]
    if healthy:
        session.connection().execute(_HEALTHY_AGAIN, {"keys": healthy, "now": now})
    for key, (reset, failures, error) in streaks.items():
        if failures:
            _add_failures(session, key, failures, reset=reset, error=error, now=now, settings=settings)


def _add_failures(session: Session, key: str, failures: int, *, reset: bool, error: str | None,
                  now: datetime, settings: Settings) -> None:
    insert = postgresql_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    session.execute(insert(DeliveryEndpoint).values(
        key=key, consecutive_failures=0, updated_at=now).on_conflict_do_nothing())
    row = session.get(DeliveryEndpoint, key, with_for_update=True, populate_existing=True)
    row.consecutive_failures = failures if reset else row.consecutive_failures + failures
    row.last_error = (error or "")[:500]
    row.updated_at = now
    beyond = row.consecutive_failures - settings.endpoint_failure_threshold
    if beyond >= 0:
        pause = min(settings.endpoint_pause_seconds * 2 ** min(beyond, 16), MAX_PAUSE_SECONDS)
        row.paused_until = now + timedelta(seconds=pause)
    session.flush()


def endpoint_states(session: Session, keys: Iterable[str]) -> dict[str, DeliveryEndpoint]:
    """The stored state of these endpoints (those that have failed since their last success)."""
    keys = sorted(set(keys))
    if not keys:
        return {}
    rows = session.scalars(select(DeliveryEndpoint).where(DeliveryEndpoint.key.in_(keys))).all()
    return {row.key: row for row in rows}


def describe_pause(row: DeliveryEndpoint | None, now: datetime) -> dict | None:
    """What an operator sees about a paused endpoint, or None when it is sending normally."""
    if row is None or row.paused_until is None:
        return None
    until = as_utc(row.paused_until)
    return {"pausedUntil": until.isoformat(timespec="seconds"), "probeDue": until <= now,
            "consecutiveFailures": row.consecutive_failures, "lastError": row.last_error}


def webhook_health(provider: Provider) -> dict:
    """The provider list's view of its webhook's circuit breaker (ProviderPublic's webhook_* fields)."""
    session = object_session(provider)
    row = session.get(DeliveryEndpoint, webhook_endpoint(provider.id)) if session is not None else None
    if row is None:
        return {}
    return {"webhook_paused_until": as_utc(row.paused_until), "webhook_failures": row.consecutive_failures,
            "webhook_last_error": row.last_error}
