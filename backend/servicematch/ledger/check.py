"""Reconciliation (`servicematch ledger check`): proves that every account's balance equals the sum
of its entries, that every sale, accepted offer with a price, approved return and approved credit
has exactly one entry of the right kind, amount and account (ledger/causes.py), that no entry
points at a cause that is not there, and that every entry moves its balance the way its kind says.

Each proof is one grouped query whatever the number of entries; on PostgreSQL they all read one
snapshot (REPEATABLE READ), so postings under way while it runs are seen whole or not at all.
Every run is recorded (LedgerCheck): when, how much it read, and what did not agree, in words.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import and_, case, exists, func, not_, or_, select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.ledger.causes import KNOWN_CAUSES, RULES, CauseRule, sign_breaks_rule
from servicematch.ledger.models import (
    Cause,
    EntryKind,
    Invoice,
    LedgerAccount,
    LedgerCheck,
    LedgerEntry,
    Payment,
)

# Problems listed (and recorded) per proof; beyond that they are counted.
LISTED = 50
RECORDED = 300
RUN_EVERY = timedelta(days=1)


def money(cents: int | None) -> str:
    cents = int(cents or 0)
    return f"{'-' if cents < 0 else ''}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


@dataclass
class Findings:
    """What a run read and what did not agree."""

    accounts: int = 0
    entries: int = 0
    # Per proof ("sale", "balance", ...): how many were checked, and how many did not agree.
    checked: dict[str, int] = field(default_factory=dict)
    wrong: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def problem_count(self) -> int:
        return sum(self.wrong.values())

    @property
    def ok(self) -> bool:
        return self.problem_count == 0

    def note(self, proof: str, found: list[str], total: int | None = None) -> None:
        """The problems one proof found (listed up to LISTED; `total` when more were counted)."""
        self.wrong[proof] = self.wrong.get(proof, 0) + (total if total is not None else len(found))
        self.problems.extend(found[:LISTED])


def reconcile(session: Session) -> Findings:
    """Every proof, read in `session` (nothing written)."""
    findings = Findings()
    _balances(session, findings)
    _kinds_and_signs(session, findings)
    for rule in RULES:
        _each_cause_once(session, rule, findings)
        _entries_have_their_cause(session, rule, findings)
    _payments_and_invoices(session, findings)
    _reversals(session, findings)
    return findings


def _limited(session: Session, query) -> tuple[list, int]:
    """Up to LISTED rows of a problem query, and how many there are in all."""
    rows = session.execute(query.limit(LISTED + 1)).all()
    if len(rows) <= LISTED:
        return rows, len(rows)
    return rows[:LISTED], int(session.scalar(select(func.count()).select_from(query.subquery())))


def _balances(session: Session, findings: Findings) -> None:
    sums = (select(LedgerEntry.account_id, func.sum(LedgerEntry.amount_cents).label("cents"),
                   func.count().label("entries")).group_by(LedgerEntry.account_id).subquery())
    totals = session.execute(select(func.count(), func.coalesce(func.sum(sums.c.entries), 0))
                             .select_from(LedgerAccount).outerjoin(sums, sums.c.account_id == LedgerAccount.id)).one()
    findings.accounts, findings.entries = int(totals[0]), int(totals[1])
    findings.checked["balance"] = findings.accounts
    summed = func.coalesce(sums.c.cents, 0)
    rows, total = _limited(session, select(LedgerAccount.kind, LedgerAccount.name, LedgerAccount.owner_id,
                                           LedgerAccount.balance_cents, summed)
                           .outerjoin(sums, sums.c.account_id == LedgerAccount.id)
                           .where(LedgerAccount.balance_cents != summed).order_by(LedgerAccount.id))
    findings.note("balance", [f"{kind} account {name!r} (owner {owner}): balance {money(balance)}, its entries add "
                              f"up to {money(cents)}" for kind, name, owner, balance, cents in rows], total)


def _kinds_and_signs(session: Session, findings: Findings) -> None:
    sign = case((LedgerEntry.amount_cents < 0, -1), (LedgerEntry.amount_cents > 0, 1), else_=0)
    found = []
    for cause, kind, moves, count in session.execute(select(LedgerEntry.cause, LedgerEntry.kind, sign, func.count())
                                                     .group_by(LedgerEntry.cause, LedgerEntry.kind, sign)):
        if kind not in EntryKind.ALL or cause not in KNOWN_CAUSES:
            found.append(f"{count} entries of an unknown kind or cause: {kind!r} for {cause!r}")
        elif sign_breaks_rule(kind, int(moves)):
            way = {-1: "negative", 0: "zero", 1: "positive"}[int(moves)]
            are = "entry is" if count == 1 else "entries are"
            found.append(f"{count} {kind} {are} {way} (cause {cause}): a {kind} never moves a balance that way")
    findings.checked["kind"] = findings.entries
    findings.note("kind", found)


def _each_cause_once(session: Session, rule: CauseRule, findings: Findings) -> None:
    """Each row that needs an entry has exactly one, and it is right."""
    source, entry, account = rule.source, LedgerEntry, LedgerAccount
    owner, expected = source.c[rule.owner], rule.expected_cents()
    right = case((and_(entry.kind == rule.kind, account.kind == rule.account_kind, account.owner_id == owner,
                       entry.amount_cents == expected), 1), else_=0)
    posted, right_ones = func.count(entry.id), func.coalesce(func.sum(right), 0)
    query = (select(source.c.id, source.c.lead_id, owner, expected.label("expected"), posted, right_ones,
                    func.coalesce(func.sum(entry.amount_cents), 0))
             .select_from(source)
             .outerjoin(entry, and_(entry.cause == rule.cause, entry.cause_id == source.c.id))
             .outerjoin(account, account.id == entry.account_id)
             .where(rule.need).group_by(source.c.id, source.c.lead_id, owner, source.c[rule.cents])
             .having(or_(posted != 1, right_ones != 1)).order_by(source.c.id))
    rows, total = _limited(session, query)
    findings.checked[rule.noun] = int(session.scalar(select(func.count()).select_from(source).where(rule.need)))
    found = []
    for cause_id, lead_id, owner_id, cents, count, _right, amount in rows:
        what, due = f"{rule.noun} {cause_id} (lead {lead_id}, {rule.account_kind} {owner_id})", money(cents)
        if count == 0:
            found.append(f"{what}: no {rule.kind} of {due} in the ledger")
        elif count > 1:
            found.append(f"{what}: {count} entries adding up to {money(amount)}; one {rule.kind} of {due} expected")
        else:
            found.append(f"{what}: its entry is {money(amount)}, not a {rule.kind} of {due} on the "
                         f"{rule.account_kind}'s account")
    findings.note(rule.noun, found, total)


def _entries_have_their_cause(session: Session, rule: CauseRule, findings: Findings) -> None:
    """No entry of this cause without its row (unless the row went with its lead), nor for a row
    that takes none (an offer never accepted, a return denied)."""
    source, entry = rule.source, LedgerEntry
    lead_still_there = exists().where(Lead.id == entry.lead_id)
    query = (select(entry.id, entry.cause_id, entry.amount_cents, source.c.id)
             .select_from(entry).outerjoin(source, source.c.id == entry.cause_id)
             .where(entry.cause == rule.cause, or_(and_(source.c.id.is_(None), lead_still_there),
                                                   and_(source.c.id.is_not(None), not_(rule.allow))))
             .order_by(entry.id))
    rows, total = _limited(session, query)
    findings.note(f"{rule.noun} entries", [
        f"entry {entry_id} ({money(cents)}) names {rule.cause} {cause_id}, " + (
            f"which takes no entry (not an {rule.noun})" if found is not None else "which does not exist")
        for entry_id, cause_id, cents, found in rows], total)


def _named_id(session: Session):
    """The id an entry's cause_id names: a later partial refund's is "<payment id>:<total refunded>"."""
    cause_id = LedgerEntry.cause_id
    if session.get_bind().dialect.name == "postgresql":
        return func.split_part(cause_id, ":", 1)
    return func.substr(cause_id, 1, func.instr(cause_id + ":", ":") - 1)


def _payments_and_invoices(session: Session, findings: Findings) -> None:
    """An entry for a payment or an invoice names one of its own account."""
    named = {Cause.PAYMENT: _named_id(session), Cause.INVOICE: LedgerEntry.cause_id}
    for cause, model in ((Cause.PAYMENT, Payment), (Cause.INVOICE, Invoice)):
        rows, total = _limited(session, select(LedgerEntry.id, LedgerEntry.cause_id, model.id)
                               .outerjoin(model, model.id == named[cause])
                               .where(LedgerEntry.cause == cause,
                                      or_(model.id.is_(None), model.account_id != LedgerEntry.account_id))
                               .order_by(LedgerEntry.id))
        findings.note(f"{cause} entries", [
            f"entry {entry_id} names {cause} {cause_id}, " + (
                "which does not exist" if found is None else "which belongs to another account")
            for entry_id, cause_id, found in rows], total)


def _reversals(session: Session, findings: Findings) -> None:
    """A reversal undoes one entry of its own account exactly. Reversals are few: read in Python."""
    reversals = session.execute(select(LedgerEntry.id, LedgerEntry.account_id, LedgerEntry.amount_cents,
                                       LedgerEntry.cause_id).where(LedgerEntry.cause == Cause.ENTRY)).all()
    reversed_ids = {int(cause_id) for *_, cause_id in reversals if cause_id.isdigit()}
    originals = {}
    ids = sorted(reversed_ids)
    for start in range(0, len(ids), 1000):
        originals.update({row.id: row for row in session.execute(select(
            LedgerEntry.id, LedgerEntry.account_id, LedgerEntry.amount_cents).where(
            LedgerEntry.id.in_(ids[start:start + 1000])))})
    found = []
    for entry_id, account_id, cents, cause_id in reversals:
        original = originals.get(int(cause_id)) if cause_id.isdigit() else None
        if original is None:
            found.append(f"reversal {entry_id} names entry {cause_id}, which does not exist")
        elif original.account_id != account_id or original.amount_cents != -cents:
            found.append(f"reversal {entry_id} ({money(cents)}) does not undo entry {cause_id} "
                         f"({money(original.amount_cents)}) of its own account")
    findings.note("reversal", found)


# -- a run, recorded -----------------------------------------------------------------------------

def run_check(session_factory: sessionmaker[Session], *, now: datetime | None = None) -> Findings:
    """Reconcile in one snapshot and record the run; returns what it found."""
    started_at, clock = now or utcnow(), time.monotonic()
    with session_factory() as session:
        if session.get_bind().dialect.name == "postgresql":
            session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        findings = reconcile(session)
        session.rollback()
    findings.seconds = time.monotonic() - clock
    with session_factory() as session:
        session.add(LedgerCheck(started_at=started_at, finished_at=started_at + timedelta(seconds=findings.seconds),
                                ok=findings.ok, accounts=findings.accounts, entries=findings.entries,
                                problems=findings.problems[:RECORDED]))
        session.commit()
    return findings


def last_check(session: Session) -> LedgerCheck | None:
    """The newest recorded run (the console's dashboard shows it)."""
    return session.scalars(select(LedgerCheck).order_by(LedgerCheck.started_at.desc(), LedgerCheck.id.desc())
                           .limit(1)).first()


def check_if_due(*, session_factory: sessionmaker[Session], now: datetime | None = None) -> Findings | None:
    """What a worker's chore calls: a run when the last one is a day old, else nothing."""
    now = now or utcnow()
    with session_factory() as session:
        last = last_check(session)
    if last is not None and as_utc(last.started_at) > now - RUN_EVERY:
        return None
    return run_check(session_factory, now=now)
