"""The filtered leads as CSV, for admins: streamed in pages so a large export holds little memory."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from sqlalchemy import and_, or_
from sqlalchemy.orm import Session, sessionmaker

from servicematch.console.leads import LeadFilters, contact_of, filtered_leads, lead_statuses
from servicematch.console.paging import iso
from servicematch.intake.models import Lead
from servicematch.settings import Settings

COLUMNS = ("requestId", "createdAt", "vertical", "service", "status", "first", "last", "email", "phone",
           "address1", "address2", "city", "state", "zip", "isDuplicate", "doNotSell")
PAGE = 500
# A cell starting with one of these is a formula to a spreadsheet; quoting it keeps it text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _line(values: list[object]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerow([_cell(v) for v in values])
    return buffer.getvalue()


def export_rows(session_factory: sessionmaker[Session], settings: Settings, filters: LeadFilters) -> Iterator[str]:
    """Header, then one line per lead, newest first; its own session, as it outlives the request's."""
    yield _line(list(COLUMNS))
    base = filtered_leads(filters, settings).order_by(Lead.created_at.desc(), Lead.id.desc()).limit(PAGE)
    after = None
    while True:
        with session_factory() as session:
            query = base
            if after is not None:
                moment, lead_id = after
                query = query.where(or_(Lead.created_at < moment,
                                        and_(Lead.created_at == moment, Lead.id < lead_id)))
            leads = list(session.scalars(query).all())
            statuses = lead_statuses(session, [lead.id for lead in leads])
        for lead in leads:
            contact = contact_of(lead, settings).get("contact", {})
            yield _line([lead.request_id, iso(lead.created_at), lead.vertical, lead.service, statuses[lead.id],
                         *(contact.get(key, "") for key in ("first", "last", "email", "phone", "address1",
                                                             "address2", "city")),
                         lead.state, lead.zip, lead.is_duplicate, lead.do_not_sell])
        if len(leads) < PAGE:
            return
        after = (leads[-1].created_at, leads[-1].id)
