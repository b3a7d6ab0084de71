"""GET /api/console/quality/measures: which traffic is bad, per source and per service (docs/quality.md,
"Measures").

Over the leads that came in within a range of days (UTC, by the lead's time; the dashboard's filters
narrow them), each source's and service's leads, and the share of them the quality gate held (held
then, whatever an operator decided since), an operator rejected, and buyers returned (a return
waiting for a decision or approved; a denied one does not count). Each share is of all the
group's leads, in percent with one decimal. Then the reasons: for each reason code, how many of
the group's leads the gate flagged with it, and how many of those were held, rejected and
returned; and the buyers' reasons for the returns. Three grouped queries, whatever the range;
nothing personal is read.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from fastapi import APIRouter, Query
from sqlalchemy import String, case, cast, func, literal, select, true
from sqlalchemy.orm import Session

from servicematch.buyer.models import LeadReturn, ReturnStatus
from servicematch.catalog.loader import CatalogDep, CatalogIndex
from servicematch.console.auth import AnyOperator, Db
from servicematch.console.dashboard import DateRange, KeyCount
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.paging import DAY_SCHEMA
from servicematch.console.shapes import Shape
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES
from servicematch.intake.models import QUALITY_HELD, QUALITY_REJECTED, QUALITY_RELEASED, Lead
from servicematch.reporting.rollup import lead_source

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)
# Each row's reasons, most frequent first.
TOP_REASONS = 5
# Held by the gate, whatever an operator decided since.
EVER_HELD = (QUALITY_HELD, QUALITY_RELEASED, QUALITY_REJECTED)
ALL = "all"


class ReasonMeasure(Shape):
    # A reason code of the gate (docs/quality.md): phone_state_mismatch, email_disposable, ...
    reason: str
    # The leads flagged with it, and of those, how many were held, rejected and returned.
    leads: int
    held: int
    rejected: int
    returned: int


class MeasureRow(Shape):
    # The source, "vertical/service", or "all".
    key: str
    # What a person reads: the source itself, the service's name, "All leads".
    label: str
    leads: int
    # Leads the gate has judged (routing has run on them since the gate existed).
    judged: int
    # Held by the gate: waiting for review now, released or rejected since.
    held: int
    heldPct: float
    # Held and waiting for an operator now.
    waiting: int
    rejected: int
    rejectedPct: float
    # Leads a buyer returned (the return waiting or approved).
    returned: int
    returnedPct: float
    reasons: list[ReasonMeasure]
    # The buyers' reasons for those returns (wrong_phone, fraud, ...), most first.
    returnReasons: list[KeyCount]


class QualityMeasures(Shape):
    range: DateRange
    total: MeasureRow
    bySource: list[MeasureRow]
    byService: list[MeasureRow]


def _leads(filters: DashboardFilters):
    """One row per lead of the range: its groups, verdict, and whether it was returned (0 or 1).

    The returned leads are joined as one set (a hash join), not looked up lead by lead."""
    returned = (select(LeadReturn.lead_id).where(LeadReturn.status != ReturnStatus.DENIED,
                                                 LeadReturn.created_at >= filters.since)
                .distinct().subquery())
    return (select(lead_source().label("source"), Lead.vertical, Lead.service,
                   func.coalesce(Lead.quality_status, literal("")).label("status"),
                   case((returned.c.lead_id.is_not(None), 1), else_=0).label("returned"),
                   Lead.quality_reasons.label("reasons"))
            .outerjoin(returned, returned.c.lead_id == Lead.id)
            .where(*filters.lead_conditions()).subquery())


def _reason_codes(session: Session, column):
    """A table of the reason codes in each lead's JSON list (none for a lead without a list)."""
    if session.bind.dialect.name == "postgresql":
        as_list = case((func.json_typeof(column) == "array", column), else_=func.json_build_array())
        return func.json_array_elements_text(as_list).table_valued("value")
    as_list = case((func.json_type(column) == "array", cast(column, String)), else_=literal("[]"))
    return func.json_each(as_list).table_valued("value")


Key = tuple[str, str, str]  # (source, vertical, service)
Counts = Counter  # leads, judged, held, waiting, rejected, returned


def _tallies(session: Session, leads) -> dict[Key, Counter]:
    held = case((leads.c.status.in_(EVER_HELD), 1), else_=0)
    query = select(leads.c.source, leads.c.vertical, leads.c.service, func.count(),
                   func.sum(case((leads.c.status != "", 1), else_=0)), func.sum(held),
                   func.sum(case((leads.c.status == QUALITY_HELD, 1), else_=0)),
                   func.sum(case((leads.c.status == QUALITY_REJECTED, 1), else_=0)), func.sum(leads.c.returned)
                   ).group_by(leads.c.source, leads.c.vertical, leads.c.service)
    found: dict[Key, Counter] = {}
    for source, vertical, service, *numbers in session.execute(query):
        found[(source, vertical, service)] = Counter(dict(zip(
            ("leads", "judged", "held", "waiting", "rejected", "returned"), (int(n or 0) for n in numbers),
            strict=True)))
    return found


def _reasons(session: Session, leads) -> dict[Key, dict[str, Counter]]:
    codes = _reason_codes(session, leads.c.reasons)
    query = (select(leads.c.source, leads.c.vertical, leads.c.service, codes.c.value, func.count(),
                    func.sum(case((leads.c.status.in_(EVER_HELD), 1), else_=0)),
                    func.sum(case((leads.c.status == QUALITY_REJECTED, 1), else_=0)), func.sum(leads.c.returned))
             .select_from(leads).join(codes, true()).where(codes.c.value.is_not(None))
             .group_by(leads.c.source, leads.c.vertical, leads.c.service, codes.c.value))
    found: dict[Key, dict[str, Counter]] = defaultdict(dict)
    for source, vertical, service, reason, *numbers in session.execute(query):
        found[(source, vertical, service)][str(reason)] = Counter(dict(zip(
            ("leads", "held", "rejected", "returned"), (int(n or 0) for n in numbers), strict=True)))
    return found


def _return_reasons(session: Session, filters: DashboardFilters) -> dict[Key, Counter]:
    query = (select(lead_source(), Lead.vertical, Lead.service, LeadReturn.reason,
                    func.count(func.distinct(LeadReturn.lead_id)))
             .join(Lead, Lead.id == LeadReturn.lead_id)
             .where(*filters.lead_conditions(), LeadReturn.status != ReturnStatus.DENIED)
             .group_by(lead_source(), Lead.vertical, Lead.service, LeadReturn.reason))
    found: dict[Key, Counter] = defaultdict(Counter)
    for source, vertical, service, reason, count in session.execute(query):
        found[(source, vertical, service)][reason] += int(count)
    return found


def _pct(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0


def _row(key: str, label: str, counts: Counter, reasons: dict[str, Counter], returns: Counter) -> dict:
    leads = counts["leads"]
    ranked = sorted(reasons.items(), key=lambda item: (-item[1]["leads"], item[0]))[:TOP_REASONS]
    return {
        "key": key, "label": label, "leads": leads, "judged": counts["judged"],
        "held": counts["held"], "heldPct": _pct(counts["held"], leads), "waiting": counts["waiting"],
        "rejected": counts["rejected"], "rejectedPct": _pct(counts["rejected"], leads),
        "returned": counts["returned"], "returnedPct": _pct(counts["returned"], leads),
        "reasons": [{"reason": reason, "leads": c["leads"], "held": c["held"], "rejected": c["rejected"],
                     "returned": c["returned"]} for reason, c in ranked],
        "returnReasons": [{"key": reason, "count": count}
                          for reason, count in sorted(returns.items(), key=lambda item: (-item[1], item[0]))],
    }


def _grouped(keys: Iterable[Key], group_of, tallies, reasons, returns) -> dict[str, tuple[Counter, dict, Counter]]:
    """Adds the (source, vertical, service) counts up under each key's group."""
    groups: dict[str, tuple[Counter, dict[str, Counter], Counter]] = {}
    for key in keys:
        counts, by_reason, by_return = groups.setdefault(group_of(key), (Counter(), defaultdict(Counter), Counter()))
        counts.update(tallies.get(key, Counter()))
        for reason, numbers in reasons.get(key, {}).items():
            by_reason[reason].update(numbers)
        by_return.update(returns.get(key, Counter()))
    return groups


def _service_label(catalog: CatalogIndex, key: str) -> str:
    vertical, _, slug = key.partition("/")
    service = catalog.find(slug, vertical)
    return service.name if service else slug


def quality_measures(session: Session, catalog: CatalogIndex, filters: DashboardFilters) -> dict:
    leads = _leads(filters)
    tallies, reasons, returns = _tallies(session, leads), _reasons(session, leads), _return_reasons(session, filters)
    keys = list(tallies)
    parts = (tallies, reasons, returns)

    def rows(group_of, label_of) -> list[dict]:
        grouped = _grouped(keys, group_of, *parts)
        made = [_row(key, label_of(key), *numbers) for key, numbers in grouped.items()]
        return sorted(made, key=lambda row: (-row["leads"], row["label"], row["key"]))

    (total,) = rows(lambda key: ALL, lambda key: "All leads") or [_row(ALL, "All leads", Counter(), {}, Counter())]
    return {
        "range": {"from": filters.start.isoformat(), "to": filters.end.isoformat()},
        "total": total,
        "bySource": rows(lambda key: key[0] or "unknown", lambda key: key),
        "byService": rows(lambda key: f"{key[1]}/{key[2]}", lambda key: _service_label(catalog, key)),
    }


@router.get("/quality/measures", response_model=QualityMeasures,
            summary="Per source and per service: leads, the shares held, rejected and returned, and the reasons")
def read_quality_measures(caller: AnyOperator, db: Db, catalog: CatalogDep,
                          date_from: str | None = Query(default=None, alias="from", json_schema_extra=DAY_SCHEMA),
                          date_to: str | None = Query(default=None, alias="to", json_schema_extra=DAY_SCHEMA),
                          vertical: str = Query(default="", max_length=32),
                          service: str = Query(default="", max_length=64),
                          state: str = Query(default="", max_length=2),
                          source: str = Query(default="", max_length=120)) -> dict:
    filters = DashboardFilters.parse(date_from=date_from, date_to=date_to, vertical=vertical, service=service,
                                     state=state, source=source)
    return quality_measures(db, catalog, filters)
