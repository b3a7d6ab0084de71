"""Reading one funnel event from the browser: bounded, checked against the catalogue, or dropped.

Only what the catalogue already knows is kept (service, step, field ids, and the text of a
disqualifying option), so nothing a visitor typed can end up in the events table.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from servicematch.catalog.loader import CatalogIndex
from servicematch.events.models import EventType

MAX_BODY_BYTES = 4096
ROUTE_TYPE = r"^[a-z][a-z0-9-]{0,23}$"
TAB_ID = r"^[A-Za-z0-9_-]{8,64}$"
SOURCE_VALUE = re.compile(r"^[A-Za-z0-9._~:@/+-]{1,100}$")


class Source(BaseModel):
    model_config = ConfigDict(extra="ignore")

    subid1: str | None = Field(default=None, max_length=100)
    subid2: str | None = Field(default=None, max_length=100)
    fbclid: bool = False


class EventIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: str
    routeType: str = Field(pattern=ROUTE_TYPE)
    service: str | None = Field(default=None, max_length=64)
    vertical: str | None = Field(default=None, max_length=32)
    step: int | None = Field(default=None, ge=0, le=99)
    field: str | None = Field(default=None, max_length=64)
    answer: str | None = Field(default=None, max_length=200)
    tabId: str = Field(pattern=TAB_ID)
    source: Source = Field(default_factory=Source)


@dataclass(frozen=True)
class CheckedEvent:
    type: str
    route_type: str
    vertical: str
    service: str
    step: int
    field: str
    answer: str
    tab_id: str
    source: str


def source_key(source: Source) -> str:
    """subid1's value, else "subid2:<value>", else "fbclid" when present, else "direct"."""
    if source.subid1 and SOURCE_VALUE.match(source.subid1):
        return source.subid1
    if source.subid2 and SOURCE_VALUE.match(source.subid2):
        return f"subid2:{source.subid2}"
    return "fbclid" if source.fbclid else "direct"


def read_event(body: bytes, catalog: CatalogIndex) -> CheckedEvent | None:
    """The event, or None for anything malformed, unknown to the catalogue or carrying free text."""
    if len(body) > MAX_BODY_BYTES:
        return None
    try:
        event = EventIn.model_validate(json.loads(body))
    except (ValueError, ValidationError, RecursionError):
        return None
    if event.type not in EventType.ALL:
        return None
    vertical, service_id, field_id, answer = "", "", "", ""
    if event.service:
        service = catalog.find(event.service, event.vertical or None)
        if service is None:
            return None
        vertical, service_id = service.vertical, service.id
    elif event.type != EventType.PAGE_VIEW:
        return None  # only a page view may come from a page that is not a service's
    if event.type == EventType.DISQUALIFIED:
        field = next((f for f in service.fields if f.id == event.field), None)
        if field is None or event.answer not in field.disqualifiers:
            return None
        field_id, answer = field.id, event.answer
    return CheckedEvent(type=event.type, route_type=event.routeType, vertical=vertical, service=service_id,
                        step=event.step or 0, field=field_id, answer=answer, tab_id=event.tabId,
                        source=source_key(event.source))
