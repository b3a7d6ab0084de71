"""Why a lead's personal data may go to nobody any more: its consent withdrawn or its data erased.

Routing asks before it offers or posts a lead again; delivery asks (through the worker's
composition, servicematch.workers) before every send of a lead's details, so no path, an
operator's resend included, sends them after a stop; the console asks before it queues a resend.
"""

from __future__ import annotations

from sqlalchemy import String, bindparam, cast, null, select, union_all
from sqlalchemy.orm import Session

from servicematch.delivery.models import Delivery
from servicematch.delivery.sending import OPTED_OUT, opted_out_of_sale
from servicematch.errors import ServiceMatchError
from servicematch.privacy.models import LeadErasure, LeadRevocation
from servicematch.privacy.notices import DISCARD, notice_target_key


class NotSentAgain(ServiceMatchError):
    """A resend of a lead's details that the consumer's choice forbids."""

    status_code = 409


WITHDREW = "the consumer withdrew consent"
ERASED = "the consumer's data was erased"


# Built once: it is asked for every batch of decisions and every round of sends.
_WITHDRAWALS_AND_ERASURES = union_all(
    select(LeadRevocation.lead_id, LeadRevocation.method)
    .where(LeadRevocation.lead_id.in_(bindparam("lead_ids", expanding=True))),
    select(LeadErasure.lead_id, cast(null(), String))
    .where(LeadErasure.lead_id.in_(bindparam("lead_ids", expanding=True))))


def withdrawal_reasons(session: Session, lead_ids: list[str]) -> dict[str, str]:
    """For each of these leads that may go to nobody, why (an erasure before a withdrawal); one query."""
    if not lead_ids:
        return {}
    reasons: dict[str, str] = {}
    for lead_id, method in session.execute(_WITHDRAWALS_AND_ERASURES, {"lead_ids": list(lead_ids)}):
        if method is None:
            reasons[lead_id] = ERASED
        else:
            reasons.setdefault(lead_id, f"{WITHDREW} ({method})")
    return reasons


def withdrawal_reason(session: Session, lead_id: str) -> str | None:
    """Why this lead may go to nobody any more, or None."""
    return withdrawal_reasons(session, [lead_id]).get(lead_id)


def why_not_send_again(session: Session, delivery: Delivery) -> str | None:
    """Why a delivery of a lead's details may not be queued again (an operator's resend), or None.
    Messages about a lead (receipts, notices) carry no details and may always go again."""
    if delivery.payload_kind != "lead" or delivery.lead is None:
        return None
    if opted_out_of_sale(delivery.lead, delivery.kind):
        return OPTED_OUT
    told_to_discard = session.scalar(select(Delivery.id).where(
        Delivery.lead_id == delivery.lead_id, Delivery.payload_kind == DISCARD,
        Delivery.target_key == notice_target_key(DISCARD, delivery.target_key)))
    if told_to_discard is not None:
        return "the buyer was told to discard this lead after its post was refused or answered late"
    return withdrawal_reason(session, delivery.lead_id)
