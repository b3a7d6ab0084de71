"""A service's questionnaire as a visitor walks it: its steps in order, numbered as the site shows them.

The browser builds the steps the same way (frontend/src/features/questionnaire/steps.ts:
mergeFields and stepNumbers; call-flow/call-steps.ts: callFlowFields). The lead form shows the
site's base fields before the service's own and puts a field without a step on the phone step
(99); the call flow shows only the service's fields, a field without a step on step 1. The
catalogue's step numbers are sort keys (a form's questions start at 2, its contact fields are on
98 and the phone on 99): a visitor sees "Step N of M", N counting the steps in order from 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from servicematch.catalog.loader import CatalogIndex
from servicematch.catalog.schema import FieldDefinition, ServiceConfig

LEAD_FORM_DEFAULT_STEP = 99
CALL_FLOW_DEFAULT_STEP = 1


@dataclass(frozen=True)
class VisitorStep:
    step: int  # the catalogue's number, which the site's funnel events carry
    number: int  # what the visitor reads: "Step {number} of {total}"
    total: int
    labels: tuple[str, ...]  # the questions the step shows, in order (hidden fields left out)

    @property
    def title(self) -> str:
        return ", ".join(self.labels)


def shown_fields(index: CatalogIndex, service: ServiceConfig) -> list[tuple[int, FieldDefinition]]:
    """(step, field) of every field the service's questionnaire shows, in the order it shows them."""
    if service.flow == "call":
        return [(f.step or CALL_FLOW_DEFAULT_STEP, f) for f in service.fields]
    base = list(index.catalog.site.baseFields) if service.includeBaseFields else []
    base_ids = {f.id for f in base}
    fields = base + [f for f in service.fields if f.id not in base_ids]
    return [(f.step or LEAD_FORM_DEFAULT_STEP, f) for f in fields]


def visitor_steps(index: CatalogIndex, service: ServiceConfig) -> list[VisitorStep]:
    fields = shown_fields(index, service)
    numbers = sorted({step for step, _ in fields})
    return [VisitorStep(step=step, number=n, total=len(numbers),
                        labels=tuple(f.label for s, f in fields if s == step and f.type != "hidden"))
            for n, step in enumerate(numbers, start=1)]
