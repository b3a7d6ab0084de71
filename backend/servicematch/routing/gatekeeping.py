"""The quality gate as routing runs it, before any ping or offer (docs/quality.md).

A lead routed for the first time is judged: its checks give a score and reasons, the suppression
lists are asked about its phone and e-mail (every global list, and the own lists of the buyers
that would otherwise be pinged), and each buyer's own rules (a minimum score, its duplicate rule)
are applied. What the gate decided is written with the lead's outcome, in the decision's
transaction:
- under SERVICEMATCH_QUALITY_HOLD_BELOW, the lead is held: nobody is pinged or offered it until an
  operator releases it (a new "lead accepted" event routes it again, judged as it was) or rejects it;
- on a global suppression list, or rejected by an operator, it is sold and offered to nobody;
- a buyer whose own list holds it, whose minimum score it is under, or to whom it is a duplicate
  by the buyer's rule, is not pinged: a pass saying why.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy.orm import Session

from servicematch.intake.models import QUALITY_HELD, QUALITY_PASSED, QUALITY_REJECTED, Lead
from servicematch.intake.payload import decrypt_personal_data
from servicematch.quality.gate import QualityGate, record
from servicematch.quality.history import History, read_histories
from servicematch.quality.reasons import Assessment, ordered
from servicematch.quality.suppression import REASON_PREFIX, Suppression, suppressed_each
from servicematch.routing.buyer_rules import excluded_buyers
from servicematch.routing.models import Buyer
from servicematch.settings import Settings


@dataclass(frozen=True)
class Verdict:
    """What the gate decided about one lead this time round.

    `assessment`: new this time (None for a lead judged before: released after a hold);
    `suppressed_lists`: the global lists holding it; `excluded`: {buyer id: why it is not pinged}."""

    assessment: Assessment | None = None
    suppressed_lists: tuple[str, ...] = ()
    excluded: dict[str, str] = field(default_factory=dict)

    @property
    def held(self) -> bool:
        return self.assessment is not None and self.assessment.hold and not self.suppressed_lists


def barred_reason(lead: Lead) -> str | None:
    """Why nobody may be sold or offered this lead, from what the gate stored on it; else None."""
    if lead.quality_status == QUALITY_REJECTED:
        return "rejected after review: sold and offered to nobody"
    lists = [reason.removeprefix(REASON_PREFIX) for reason in lead.quality_reasons or []
             if reason.startswith(REASON_PREFIX)]
    if lists:
        return f"on the suppression list {', '.join(lists)}: sold and offered to nobody"
    return None


@dataclass(frozen=True)
class GateReads:
    """What the gate read about a lead with the rest of its round: its decrypted contact details,
    its history (None for a lead judged before, released after a hold) and the lists holding it."""

    contact: dict
    history: History | None
    lists: Suppression


def read_for_gate(session: Session, asks: list[tuple[Lead, list[Buyer]]], settings: Settings) -> dict[str, GateReads]:
    """{lead id: GateReads} for a round of leads (read in `session`, their consents loaded), each
    with the buyers that would be pinged: two statements for the round, whatever its size."""
    contacts = {lead.id: decrypt_personal_data(lead=lead, settings=settings).get("contact") or {} for lead, _ in asks}
    histories = read_histories(session, [lead for lead, _ in asks if lead.quality_status is None], settings)
    lists = suppressed_each(session, {lead.id: (contacts[lead.id].get("phone"), contacts[lead.id].get("email"),
                                                [buyer.id for buyer in buyers]) for lead, buyers in asks})
    return {lead.id: GateReads(contacts[lead.id], histories.get(lead.id), lists[lead.id]) for lead, _ in asks}


def judge(session: Session, lead: Lead, reads: GateReads, *, gate: QualityGate, buyers: list[Buyer],
          now: datetime, sellable: bool) -> Verdict:
    """Judge `lead` for the buyers that would be pinged, from what `read_for_gate` read of it; the
    session serves the buyers' own duplicate rules, which read only when a buyer has one.

    The lead object is changed in memory only (its score, reasons and status, so the pings carry
    them and the buyers' rules read them): the decision's transaction writes the verdict with `apply`."""
    with session.no_autoflush:
        assessment = None
        if reads.history is not None:
            assessment = gate.assess(lead, reads.history, contact=reads.contact, third_parties=sellable)
        verdict = Verdict(assessment=assessment, suppressed_lists=tuple(reads.lists.global_lists))
        apply(lead, verdict)
        if verdict.held or not buyers or verdict.suppressed_lists or barred_reason(lead):
            return verdict
        excluded = {buyer_id: f"on its own suppression list {name}" for buyer_id, name in reads.lists.buyers.items()}
        for buyer_id, why in excluded_buyers(session, lead=lead, buyers=buyers, now=now).items():
            excluded.setdefault(buyer_id, why)
        return replace(verdict, excluded=excluded)


def apply(lead: Lead, verdict: Verdict) -> None:
    """Write the verdict on the lead: a new assessment, and the global lists as reasons."""
    if verdict.assessment is not None:
        record(lead, verdict.assessment)
    if verdict.suppressed_lists:
        codes = Suppression(global_lists=list(verdict.suppressed_lists)).reason_codes()
        lead.quality_reasons = ordered_with_lists(lead.quality_reasons or [], codes)
        if lead.quality_status == QUALITY_HELD:
            # Nobody may have it whatever an operator decides: there is nothing to review.
            lead.quality_status = QUALITY_PASSED


def ordered_with_lists(reasons: list[str], codes: list[str]) -> list[str]:
    """The checks' reasons as they rank, then the suppression lists (which carry no weight)."""
    checks = [reason for reason in reasons if not reason.startswith(REASON_PREFIX)]
    return [*ordered(checks), *sorted(set(codes) | {r for r in reasons if r.startswith(REASON_PREFIX)})]
