"""Claiming due deliveries under a lease, and completing their attempts, in batches.

A claim records the attempt (outcome `sending`) in the same transaction that takes the lease, so
every send is on record before it leaves; completion fills in the answer afterwards.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import (
    Integer,
    String,
    and_,
    bindparam,
    insert,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.orm import Session, sessionmaker

from servicematch.db.arrays import as_arrays, unnested
from servicematch.delivery import endpoints
from servicematch.delivery.models import (
    Delivery,
    DeliveryAttempt,
    DeliveryStatus,
    Provider,
    TargetKind,
    new_id,
)
from servicematch.delivery.retry import next_delay, window_is_over
from servicematch.kernel.clock import as_utc
from servicematch.outbound.outcome import Outcome, SendResult, may_have_arrived
from servicematch.settings import Settings

_attempts = DeliveryAttempt.__table__
_INSERT_ATTEMPTS = insert(_attempts)
# Candidates read per free slot: rows of endpoints already at their limit are passed over.
OVERFETCH = 4


@dataclass(frozen=True)
class Claim:
    delivery_id: str
    token: str
    endpoint: str
    attempt_id: str
    claimed_until: datetime


@dataclass(frozen=True)
class Completion:
    claim: Claim
    result: SendResult


def _claimable(now: datetime):
    return (
        Delivery.status == DeliveryStatus.PENDING,
        Delivery.next_attempt_at <= now,
        or_(Delivery.claimed_until.is_(None), Delivery.claimed_until < now),
    )


def claim_due(
    *, session_factory: sessionmaker[Session], now: datetime, settings: Settings, limit: int,
    in_flight: Mapping[str, int] | None = None, endpoint_limit: int | None = None,
) -> list[Claim]:
    """Lease up to `limit` due deliveries to this caller; no two callers get the same one.

    `in_flight` counts this caller's sends under way per endpoint; an endpoint already at
    `endpoint_limit` gets nothing more, and a paused endpoint gets nothing but its probe.
    """
    in_flight = Counter(in_flight or {})
    lease_seconds = settings.delivery_lease_seconds
    with session_factory() as session:
        breakers = endpoints.read_breakers(session, now)
        full = {key for key, count in in_flight.items() if endpoint_limit and count >= endpoint_limit}
        chosen: list[tuple[str, str, str | None]] = []
        for key in sorted(breakers.probe_due - full):
            if len(chosen) >= limit:
                break
            # The probe right is taken only with a delivery to probe with, or the pause would
            # grow by a lease for nothing.
            probe = _candidates(session, now, endpoints.deliveries_of_endpoint(key), 1)
            if probe and endpoints.take_probe(session, key, now=now, lease_seconds=lease_seconds):
                chosen += probe
        left_out = full | breakers.paused | breakers.probe_due
        if left_out:
            rows = _candidates(session, now, endpoints.not_sent_to(left_out), limit * OVERFETCH)
        else:  # the usual round: every endpoint may take more
            rows = list(session.execute(_due_statement(session.get_bind().dialect.name),
                                        {"now": now, "limit": limit * OVERFETCH}))
        for row in rows:
            if len(chosen) >= limit:
                break
            key = endpoints.endpoint_key(row[1], row[2])
            if endpoint_limit is None or in_flight[key] < endpoint_limit:
                in_flight[key] += 1
                chosen.append(row)
        claims = _take(session, chosen, now=now, settings=settings)
        session.commit()
    return claims


def _candidates(session: Session, now: datetime, condition, limit: int):
    return list(session.execute(_candidates_query(session.get_bind().dialect.name, now, condition, limit)))


def _candidates_query(dialect_name: str, now, condition, limit):
    query = (
        select(Delivery.id, Delivery.kind, Delivery.target_key, Provider.webhook_url,
               Provider.contact_email, Delivery.attempt_count)
        .outerjoin(Provider, Provider.id == Delivery.provider_id)
        .where(*_claimable(now), condition).order_by(Delivery.next_attempt_at).limit(limit)
    )
    if dialect_name == "postgresql":
        # Workers skip rows another worker is claiming instead of queueing behind it.
        query = query.with_for_update(of=Delivery, skip_locked=True)
    return query


@functools.cache
def _due_statement(dialect_name: str):
    """_candidates of a round that leaves out no endpoint, built once: every round runs it."""
    return _candidates_query(dialect_name, bindparam("now", type_=Delivery.next_attempt_at.type), true(),
                             bindparam("limit", type_=Integer()))


def _take_statement():
    # Compare-and-set: the lease is taken only where nobody holds it, on every backend.
    # On the table, not the ORM class: the ORM's bulk-update machinery costs more than the statement.
    table = Delivery.__table__
    return (update(table)
            .where(table.c.id.in_(bindparam("ids", expanding=True)),
                   *_claimable(bindparam("now", type_=table.c.claimed_until.type)))
            .values(claimed_until=bindparam("until", type_=table.c.claimed_until.type),
                    claim_token=bindparam("token", type_=table.c.claim_token.type),
                    attempt_count=table.c.attempt_count + 1)
            .returning(table.c.id))


# Built once: every round of sends takes its claims with it.
_TAKE = _take_statement()


def _take(session: Session, rows: list, *, now: datetime, settings: Settings) -> list[Claim]:
    if not rows:
        return []
    token, until = new_id(), now + timedelta(seconds=settings.delivery_lease_seconds)
    ids = [row[0] for row in rows]
    taken = set(session.connection().scalars(_TAKE, {"ids": ids, "now": now, "until": until, "token": token}))
    if not taken:
        return []
    # An attempt still `sending` belongs to a worker that stopped (or lost its lease) mid-send;
    # only a delivery tried before can have one, so a first attempt skips the statement.
    tried_before = [row[0] for row in rows if row[0] in taken and row[5]]
    if tried_before:
        session.connection().execute(
            update(_attempts)
            .where(_attempts.c.delivery_id.in_(tried_before), _attempts.c.outcome == Outcome.SENDING)
            .values(outcome=Outcome.UNKNOWN,
                    error="no answer on record: the worker stopped or lost its lease during the send")
        )
    claims, attempts = [], []
    for delivery_id, kind, target_key, webhook_url, contact_email, _ in rows:
        if delivery_id not in taken:
            continue
        attempt_id = new_id()
        attempts.append({"id": attempt_id, "delivery_id": delivery_id, "attempted_at": now, "duration_ms": 0,
                         "target": _target(kind, target_key, webhook_url, contact_email, settings),
                         "outcome": Outcome.SENDING})
        claims.append(Claim(delivery_id=delivery_id, token=token, attempt_id=attempt_id,
                            endpoint=endpoints.endpoint_key(kind, target_key), claimed_until=until))
    # One multi-row insert, without the unit of work: claiming runs for every round of sends.
    session.connection().execute(_INSERT_ATTEMPTS, attempts)
    return claims


def _target(kind: str, target_key: str, webhook_url: str | None, contact_email: str | None,
            settings: Settings) -> str:
    if kind == TargetKind.BUYER:
        return settings.buyer_url or "buyer"
    if kind == TargetKind.PROVIDER_WEBHOOK:
        return webhook_url or target_key
    return f"mailto:{contact_email}" if contact_email else target_key


# Built once: every round records its answers with them.
_UNDELIVERED = (select(Delivery.id, Delivery.window_started_at, Delivery.attempt_count,
                       and_(Delivery.kind == TargetKind.BUYER_POST, Delivery.payload_kind == "lead")
                       .label("auction_post"))
                .where(Delivery.id.in_(bindparam("ids", expanding=True))))
_DELIVERIES = Delivery.__table__
_DELIVERED = (update(_DELIVERIES)
              .where(_DELIVERIES.c.id.in_(bindparam("ids", expanding=True)),
                     _DELIVERIES.c.status == DeliveryStatus.PENDING)
              .values(status=DeliveryStatus.DELIVERED,
                      completed_at=bindparam("now", type_=_DELIVERIES.c.completed_at.type),
                      claimed_until=None, claim_token=None, last_error=None)
              .returning(_DELIVERIES.c.id))


def complete_attempts(
    *, session_factory: sessionmaker[Session], completions: list[Completion], now: datetime,
    settings: Settings,
) -> list[str | None]:
    """Record the answers and move each delivery on, in one transaction.

    Returns each delivery's new status, or None where another worker holds the delivery now
    and the answer does not settle it. A receiver's final answer (delivered or rejected) settles
    a pending delivery even after the lease ran out, so a slow success is never sent again.
    """
    if not completions:
        return []
    with session_factory() as session:
        connection = session.connection()
        # What a retry is scheduled from; nothing to read when every answer was a success.
        undelivered = [c.claim.delivery_id for c in completions if c.result.outcome != Outcome.DELIVERED]
        known = {row.id: row for row in connection.execute(
            _UNDELIVERED, {"ids": undelivered})} if undelivered else {}
        # One statement for all the answers, and one for all the successes: the common case costs
        # two statements per batch, not two per delivery.
        _fill_in_attempts(connection, [_attempt_values(c) for c in completions])
        delivered = [c.claim.delivery_id for c in completions if c.result.outcome == Outcome.DELIVERED]
        settled = set(connection.scalars(_DELIVERED, {"ids": delivered, "now": now})) if delivered else set()
        statuses = [
            (DeliveryStatus.DELIVERED if c.claim.delivery_id in settled else None)
            if c.result.outcome == Outcome.DELIVERED
            else _complete_one(connection, c, known.get(c.claim.delivery_id), now=now, settings=settings)
            for c in completions
        ]
        endpoints.record_answers(session, [(c.claim.endpoint, c.result) for c in completions],
                                 now=now, settings=settings)
        session.commit()
    return statuses


_FILL_IN_ATTEMPT = (
    update(_attempts).where(_attempts.c.id == bindparam("attempt_id"))
    .values(target=bindparam("target"), status_code=bindparam("status_code"), error=bindparam("error"),
            response_body=bindparam("response_body"), duration_ms=bindparam("duration_ms"),
            outcome=bindparam("outcome"))
)
_ANSWER_COLUMNS = (("attempt_id", String), ("target", String), ("status_code", Integer), ("error", String),
                   ("response_body", String), ("duration_ms", Integer), ("outcome", String))
# PostgreSQL: a round's answers as one array a column, zipped into rows by unnest(), so the statement
# is the same for every round size and compiled once.
_ANSWERS = unnested("answers", _ANSWER_COLUMNS)
_FILL_IN_ATTEMPTS_AT_ONCE = (
    update(_attempts).where(_attempts.c.id == _ANSWERS.c.attempt_id)
    .values(**{name: _ANSWERS.c[name] for name, _ in _ANSWER_COLUMNS if name != "attempt_id"})
)


def _fill_in_attempts(connection, rows: list[dict]) -> None:
    """Write each attempt's answer. PostgreSQL takes them all in one UPDATE ... FROM unnest(...),
    where a batch of single-row updates would cost it a statement each; SQLite, in process, runs
    the batch of updates faster than it plans a join."""
    if connection.dialect.name != "postgresql":
        connection.execute(_FILL_IN_ATTEMPT, rows)
        return
    connection.execute(_FILL_IN_ATTEMPTS_AT_ONCE, as_arrays(rows, _ANSWER_COLUMNS))


def _attempt_values(completion: Completion) -> dict:
    result = completion.result
    return {"attempt_id": completion.claim.attempt_id, "target": result.target,
            "status_code": result.status_code, "error": result.error, "response_body": result.response_body,
            "duration_ms": result.duration_ms, "outcome": result.outcome}


def _complete_one(connection, completion: Completion, row, *, now: datetime, settings: Settings) -> str | None:
    """A delivery that was not delivered: rejected, failed for good, or due again later."""
    claim, result = completion.claim, completion.result
    if row is None:
        return None
    values: dict = {"claimed_until": None, "claim_token": None, "last_error": _describe_failure(result)}
    table = Delivery.__table__
    in_doubt = row.auction_post and result.outcome != Outcome.REJECTED and (
        result.may_have_arrived or _arrived_before(connection, claim))
    if result.outcome == Outcome.REJECTED or (row.auction_post and not in_doubt):
        # A refusal, or an auction post that never reached its buyer: routing settles it at once.
        values |= {"status": DeliveryStatus.REJECTED, "completed_at": now}
        # Without the lease, a final answer still settles a delivery nobody settled yet.
        who = table.c.status == DeliveryStatus.PENDING
    elif in_doubt:
        # The buyer may have taken the lead: only the same buyer, asked again with the same
        # webhook-id, can say. Until it does (or the bound passes), nobody else is posted the lead.
        # Asked again at least once whatever the time: a post whose worker was down until the bound
        # passed still gets its buyer's answer before it is given up.
        if (now - as_utc(row.window_started_at) >= timedelta(seconds=settings.post_settle_seconds)
                and (row.attempt_count or 0) >= 2):
            values |= {"status": DeliveryStatus.FAILED, "completed_at": now,
                       "last_error": f"in doubt: no definite answer within {settings.post_settle_seconds} s; "
                                     f"last: {values['last_error']}"}
        else:
            values |= {"next_attempt_at": now + settle_delay(row.attempt_count or 1)}
        who = table.c.claim_token == claim.token
    else:
        if window_is_over(created_at=as_utc(row.window_started_at), now=now, settings=settings):
            values |= {"status": DeliveryStatus.FAILED, "completed_at": now}
        else:
            values |= {"next_attempt_at": now + next_delay(attempt=row.attempt_count or 1, settings=settings)}
        who = table.c.claim_token == claim.token
    moved = connection.execute(update(table).where(table.c.id == claim.delivery_id, who).values(**values)).rowcount
    return values.get("status", DeliveryStatus.PENDING) if moved == 1 else None


def settle_delay(attempt: int) -> timedelta:
    """The wait before asking a buyer again about a post in doubt: 1, 2, 4 ... up to 30 seconds."""
    return timedelta(seconds=min(2 ** max(attempt - 1, 0), 30))


def _arrived_before(connection, claim: Claim) -> bool:
    """Whether an earlier attempt of this delivery may have reached its receiver."""
    earlier = connection.execute(
        select(_attempts.c.outcome, _attempts.c.status_code, _attempts.c.error)
        .where(_attempts.c.delivery_id == claim.delivery_id, _attempts.c.id != claim.attempt_id))
    return any(may_have_arrived(outcome=row.outcome, status_code=row.status_code, error=row.error)
               for row in earlier)


def _describe_failure(result: SendResult) -> str | None:
    if result.outcome == Outcome.DELIVERED:
        return None
    if result.error:
        return result.error
    return f"HTTP {result.status_code}" if result.status_code else "unknown failure"
