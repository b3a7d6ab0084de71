"""What the console shows and filters of a lead's quality verdict (docs/quality.md): the lead list's
filters by verdict and score, and the review an operator gave a held lead (console/held_leads.py)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.access.models import AuditEntry
from servicematch.console.paging import iso
from servicematch.console.shapes import Shape
from servicematch.errors import ServiceMatchError
from servicematch.intake.models import (
    QUALITY_HELD,
    QUALITY_PASSED,
    QUALITY_REJECTED,
    QUALITY_RELEASED,
    Lead,
)

# "unjudged": a lead the gate has not run on (routing has not reached it yet, or it came in
# before the gate existed).
QUALITY_UNJUDGED = "unjudged"
QUALITY_FILTERS = (QUALITY_PASSED, QUALITY_HELD, QUALITY_RELEASED, QUALITY_REJECTED, QUALITY_UNJUDGED)
# The audit log's names of an operator's decision on a held lead.
LEAD_RELEASE = "lead.release"
LEAD_REJECT = "lead.reject"
DECISIONS = {LEAD_RELEASE: QUALITY_RELEASED, LEAD_REJECT: QUALITY_REJECTED}


def quality_conditions(*, quality: str, score_min: int | None, score_max: int | None) -> list:
    """A verdict, and a score range with both ends included (which leaves out leads with no score)."""
    conditions = []
    if quality:
        if quality not in QUALITY_FILTERS:
            raise ServiceMatchError(f"quality is one of {', '.join(QUALITY_FILTERS)}.",
                                    fields={"quality": "invalid"}, status_code=422)
        conditions.append(Lead.quality_status.is_(None) if quality == QUALITY_UNJUDGED
                          else Lead.quality_status == quality)
    if score_min is not None and score_max is not None and score_min > score_max:
        raise ServiceMatchError("scoreMin must not be above scoreMax.", fields={"scoreMin": "above scoreMax"},
                                status_code=422)
    if score_min is not None:
        conditions.append(Lead.quality_score >= score_min)
    if score_max is not None:
        conditions.append(Lead.quality_score <= score_max)
    return conditions


class QualityReview(Shape):
    """An operator's decision on a held lead, as the audit log keeps it."""

    # released (routed again) or rejected (sold to nobody)
    decision: str
    by: str
    at: str | None
    note: str | None


def quality_review(session: Session, lead_id: str) -> dict | None:
    """The latest release or rejection of the lead (there is at most one: only a held lead is decided)."""
    entry = session.scalars(
        select(AuditEntry).where(AuditEntry.action.in_(tuple(DECISIONS)), AuditEntry.target == lead_id)
        .order_by(AuditEntry.at.desc(), AuditEntry.id.desc()).limit(1)).first()
    if entry is None:
        return None
    return {"decision": DECISIONS[entry.action], "by": entry.operator_email, "at": iso(entry.at),
            "note": (entry.detail or {}).get("note") or None}
