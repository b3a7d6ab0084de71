"""The quality gate benchmark's data: a month of history, and 1,000 labelled leads stored through intake.

History (written straight into the tables, in batches): leads with random lookup hashes spread
over 30 days, their consent records (client addresses drawn from a pool, so some repeat), and the
funnel events of their visitors' tabs. It is what the gate's one query has to look through.

The labelled leads go through intake's own code (the form's checks, encryption, the lead store's
transaction), one by one in time order over the last 25 minutes, each with the funnel event its
tab sent when the form showed. Every defect is planted on an otherwise clean lead:

    clean        people: 8% with a phone from another state (they moved), 2% whose funnel event
                 was lost, 1% with a middling reCAPTCHA score, 5% sharing a client address with
                 another, some coming back for a second service a few minutes later
    honeypot     the hidden field filled (and the form done in 2 s)
    fast         the form done in 1-4 s, by the report and by the server's clock
    lying        the report says 45 s, the server first saw the tab 2 s before the lead
    disposable   a throwaway-mailbox domain
    area code    a phone whose area code serves another state than the lead's
    fake phone   555-01xx, 123-456-7890 and the like
    role e-mail  info@, sales@, support@
    burst        6 leads with one phone, e-mail, address and client address in 3 minutes: the
                 first 3 are within the limit ("burst, allowed"), the next 3 are the defect
"""

from __future__ import annotations

import random
import uuid
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import insert, text

from servicematch.address.directory import load_directory
from servicematch.catalog.loader import CatalogIndex
from servicematch.errors import ServiceMatchError
from servicematch.events.models import FunnelEvent
from servicematch.inbound.validation import is_us_number
from servicematch.intake.checks import check_lead_form
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.intake.schemas import LeadFormSubmission
from servicematch.intake.service import LeadTransactions, NewLead, build_lead, fingerprint
from servicematch.intake.submission import address_key, quality_signals
from servicematch.kernel.crypto import cipher_for
from servicematch.kernel.references import new_reference
from servicematch.quality import reasons as r
from servicematch.quality.area_codes import AREA_CODE_STATES

# What each planted category must be flagged with.
EXPECTED = {"honeypot": r.HONEYPOT, "fast": r.FORM_TOO_FAST, "lying": r.FORM_TIMING_MISMATCH,
            "disposable": r.EMAIL_DISPOSABLE, "area code": r.PHONE_AREA_STATE, "fake phone": r.PHONE_FAKE,
            "role e-mail": r.EMAIL_ROLE, "burst": r.VELOCITY_PHONE}
PLANTED = {"honeypot": 40, "fast": 40, "lying": 30, "disposable": 30, "area code": 30, "fake phone": 25,
           "role e-mail": 15}
BURSTS, BURST_SIZE = 5, 6
STATES = ["TX", "CA", "FL", "NY", "IL", "PA", "OH", "GA", "NC", "MI", "AZ", "WA", "CO", "TN", "MA"]
FIRST = ["Maria", "James", "Ann", "Robert", "Linda", "David", "Susan", "Carlos", "Mei", "Aisha", "John", "Emma"]
LAST = ["Garcia", "Smith", "Lee", "Johnson", "Brown", "Nguyen", "Patel", "Williams", "Lopez", "Kim", "Davis"]
MAIL = ["gmail.com", "yahoo.com", "outlook.com", "icloud.com", "hotmail.com", "aol.com", "comcast.net"]
THROWAWAY = ["mailinator.com", "guerrillamail.com", "10minutemail.com", "yopmail.com", "trashmail.com"]
# Made-up numbers intake lets through (a valid area code and exchange): 123-456-7890 itself is refused there.
FAKE_PHONES = ["{a}5550142", "{a}5550199", "{a}7777777", "{a}4567890", "{a}3456789", "2345678901"]


@dataclass
class Planned:
    category: str
    at: datetime
    state: str
    phone: str
    email: str
    street: str
    ip: str
    seconds: float | None  # what the browser reports
    seen_before: float | None  # when the server's funnel event came, seconds before the lead
    honeypot: str = ""
    recaptcha: float | None = None
    lead_id: str = field(default="")
    # Shares a key with another clean lead already (a second visit, a shared address): used once only.
    paired: bool = False


def _area_codes() -> dict[str, list[str]]:
    by_state: dict[str, list[str]] = {}
    for area_code, state in AREA_CODE_STATES.items():
        by_state.setdefault(state, []).append(area_code)
    return by_state


def plan(rng: random.Random, now: datetime) -> list[Planned]:
    """The 1,000 labelled leads, in time order."""
    codes = _area_codes()

    def phone(state: str) -> str:
        while True:  # a number intake takes (some exchanges are not in use)
            number = f"{rng.choice(codes[state])}{rng.randint(200, 999)}{rng.randint(0, 9999):04d}"
            if is_us_number(number):
                return number

    def person(category: str, at: datetime, **overrides) -> Planned:
        state = rng.choice(STATES)
        first, last = rng.choice(FIRST), rng.choice(LAST)
        seconds = round(rng.uniform(25, 300), 1)
        base = Planned(category, at, state, phone(state), f"{first}.{last}{rng.randint(1, 9999)}@{rng.choice(MAIL)}".lower(),
                       f"{rng.randint(1, 9999)} {rng.choice(['Oak', 'Elm', 'Main', 'Cedar', 'Lake'])} "
                       f"{rng.choice(['St', 'Ave', 'Dr', 'Ln'])}", f"{rng.randint(11, 223)}.{rng.randint(0, 255)}."
                       f"{rng.randint(0, 255)}.{rng.randint(1, 254)}", seconds, seconds + rng.uniform(0.2, 3))
        for key, value in overrides.items():
            setattr(base, key, value)
        return base

    start = now - timedelta(minutes=25)
    moments = sorted(start + timedelta(seconds=rng.uniform(0, 25 * 60)) for _ in range(1000))
    leads: list[Planned] = []
    categories = [c for c, n in PLANTED.items() for _ in range(n)]
    categories += ["clean"] * (1000 - len(categories) - BURSTS * BURST_SIZE)
    rng.shuffle(categories)
    for category, at in zip(categories, moments[: len(categories)], strict=True):
        lead = person(category, at)
        if category == "clean":
            roll = rng.random()
            if roll < 0.08:
                lead.phone = phone(rng.choice([s for s in STATES if s != lead.state]))
            elif roll < 0.10:
                lead.seen_before = None
            elif roll < 0.11:
                lead.recaptcha = 0.6
            elif roll < 0.19 and (single := [e for e in leads[-30:] if e.category == "clean" and not e.paired]):
                earlier = rng.choice(single)
                earlier.paired = lead.paired = True
                if roll < 0.16:  # a household or an office: one client address
                    lead.ip = earlier.ip
                else:  # the same person, for another service, minutes later
                    lead.phone, lead.email, lead.street, lead.state = (earlier.phone, earlier.email, earlier.street,
                                                                       earlier.state)
                    lead.ip = earlier.ip
        elif category == "honeypot":
            lead.honeypot, lead.seconds, lead.seen_before = "https://cheap.example", 2.0, 2.1
        elif category == "fast":
            lead.seconds = round(rng.uniform(1, 4), 1)
            lead.seen_before = lead.seconds + 0.3
        elif category == "lying":
            lead.seconds, lead.seen_before = 45.0, 2.0
        elif category == "disposable":
            lead.email = f"{lead.email.split('@')[0]}@{rng.choice(THROWAWAY)}"
        elif category == "area code":
            lead.phone = phone(rng.choice([s for s in STATES if s != lead.state]))
        elif category == "fake phone":
            lead.phone = rng.choice(FAKE_PHONES).format(a=rng.choice(codes[lead.state]))
        elif category == "role e-mail":
            lead.email = f"{rng.choice(['info', 'sales', 'support', 'office'])}@{lead.street.split()[1].lower()}-hvac.com"
        leads.append(lead)
    for burst in range(BURSTS):
        first = person("burst", moments[len(categories) + burst * BURST_SIZE])
        for number in range(BURST_SIZE):
            at = first.at + timedelta(seconds=30 * number)
            leads.append(Planned("burst" if number >= 3 else "burst, allowed", at, first.state, first.phone,
                                 first.email, first.street, first.ip, 30.0, 31.0))
    return sorted(leads, key=lambda lead: lead.at)


def store(planned: list[Planned], *, index: CatalogIndex, transactions: LeadTransactions, settings) -> None:
    """Each lead through intake's checks and store, at its planned time, with its tab's funnel event."""
    services = [s for s in index.catalog.services if s.flow == "form" and s.includeBaseFields
                and all(f.options for f in s.fields if f.mapping)][:6]
    zips = {}
    for entry in load_directory().by_zip_prefix("", limit=100_000):
        if entry.standard:
            zips.setdefault(entry.state, []).append(entry)
    events = []
    for number, lead in enumerate(planned):
        service = services[number % len(services)]
        # One street in one state is one place, so a burst's leads and a second visit share the address.
        place = zips[lead.state][zlib.crc32(lead.street.encode()) % len(zips[lead.state])]
        answers = {f.mapping: next(o for o in f.options if o not in f.disqualifiers)
                   for f in service.fields if f.mapping and f.options}
        body = {"pid": 16, "sid": 143, "cid": service.cid, "istest": "N", "requestId": str(uuid.uuid4()),
                "consumer": {"first": "Pat", "last": "Doe", "email": lead.email, "phone": lead.phone,
                             "address1": lead.street, "address2": "", "city": place.city.title(),
                             "state": lead.state, "zip": place.zip, **service.hiddenParams.model_dump(), **answers},
                "customquestions": {k: v for k, v in answers.items() if k.startswith("cq")},
                "click": {"domain_url": "https://servicematch.example/services/x", "useragent": "Mozilla/5.0"}}
        submission = LeadFormSubmission.model_validate(body)
        try:
            checked = check_lead_form(index=index, service=service, submission=submission, today=lead.at.date())
        except ServiceMatchError as refusal:
            raise SystemExit(f"intake refused a planned {lead.category} lead: {refusal.fields}") from None
        row = build_lead(settings=settings, checked=checked, request_id=body["requestId"],
                         request_hash=fingerprint(body), is_test=False, click=submission.click.model_dump(),
                         do_not_sell=False)
        row.created_at = lead.at
        key = address_key(checked.contact)
        row.address_hash = cipher_for(settings).lookup_hash("address", key) if key else None
        tab = uuid.uuid4().hex
        reported = {"secondsOnForm": lead.seconds, "tabId": tab, "honeypot": lead.honeypot}
        row.quality_signals = quality_signals(reported, lead.recaptcha)
        evidence = ConsentEvidence(ip_address=lead.ip, user_agent="Mozilla/5.0", page_url=body["click"]["domain_url"],
                                   trustedform_cert_url="", global_privacy_control=False)
        lead.lead_id = transactions.store_one(NewLead(lead=row, evidence=evidence)).lead.id
        if lead.seen_before is not None:
            events.append({"at": lead.at - timedelta(seconds=lead.seen_before), "type": "page_view",
                           "route_type": "form", "vertical": service.vertical, "service": service.id, "step": 0,
                           "field": "", "answer": "", "tab_id": tab, "source": "direct"})
    with transactions.session_factory() as session:
        session.execute(insert(FunnelEvent), events)
        session.commit()


def seed_history(session_factory, *, leads: int, events: int, now: datetime, rng: random.Random,
                 partner_list_version: str) -> None:
    """A month of earlier leads, their consent records and funnel events, in batches of 5,000."""
    services = ["hvac", "roofing", "plumbing", "solar", "windows", "auto-insurance"]
    addresses = [f"{rng.randint(11, 223)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
                 for _ in range(max(1, leads // 3))]
    with session_factory() as session:
        for start in range(0, leads, 5000):
            rows, consents = [], []
            for _ in range(start, min(leads, start + 5000)):
                at = now - timedelta(seconds=rng.uniform(60, 30 * 86400))
                lead_id = str(uuid.uuid4())
                rows.append({"id": lead_id, "request_id": lead_id, "reference": new_reference(),
                             "request_hash": uuid.uuid4().hex * 2, "flow": "form", "vertical": "services",
                             "service": rng.choice(services), "category": "HVAC", "cid": 640, "is_test": False,
                             "is_duplicate": False, "do_not_sell": False, "email_hash": uuid.uuid4().hex * 2,
                             "phone_hash": uuid.uuid4().hex * 2, "address_hash": uuid.uuid4().hex * 2,
                             "state": "TX", "zip": "78701", "personal_data": b"\x00", "answers": {}, "click": {},
                             "created_at": at})
                consents.append({"id": str(uuid.uuid4()), "lead_id": lead_id, "consent_text": "history",
                                 "consent_text_sha256": "0" * 64, "partner_list_version": partner_list_version,
                                 "consented_at": at, "ip_address": rng.choice(addresses),
                                 "global_privacy_control": False})
            session.execute(insert(Lead.__table__), rows)
            session.execute(insert(ConsentRecord.__table__), consents)
            session.commit()
        for start in range(0, events, 5000):
            session.execute(insert(FunnelEvent), [
                {"at": now - timedelta(seconds=rng.uniform(60, 30 * 86400)), "type": "step_view", "route_type": "form",
                 "vertical": "services", "service": rng.choice(services), "step": rng.randint(1, 6), "field": "",
                 "answer": "", "tab_id": uuid.uuid4().hex, "source": "direct"}
                for _ in range(start, min(events, start + 5000))])
            session.commit()


RECENT_EVENTS_SQL = {
    # One step of a tab a row, over the hour before `now`, spread over six services.
    "postgresql": """
        INSERT INTO funnel_events (at, type, route_type, vertical, service, step, field, answer, tab_id, source)
        SELECT CAST(:now AS timestamptz) - random() * interval '1 hour', 'step_view', 'form', 'services',
               (ARRAY['hvac', 'roofing', 'plumbing', 'solar', 'windows', 'auto-insurance'])[1 + g % 6], g % 7, '',
               '', md5(g::text), 'direct'
        FROM generate_series(1, :count) AS g""",
    "sqlite": """
        INSERT INTO funnel_events (at, type, route_type, vertical, service, step, field, answer, tab_id, source)
        WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < :count)
        SELECT strftime('%Y-%m-%d %H:%M:%f', :now, '-' || ((abs(random()) % 3600000) / 1000.0) || ' seconds'),
               'step_view', 'form', 'services',
               CASE n % 6 WHEN 0 THEN 'hvac' WHEN 1 THEN 'roofing' WHEN 2 THEN 'plumbing' WHEN 3 THEN 'solar'
                          WHEN 4 THEN 'windows' ELSE 'auto-insurance' END,
               n % 7, '', '', lower(hex(randomblob(16))), 'direct'
        FROM g""",
}


def seed_recent_events(session_factory, *, count: int, now: datetime) -> None:
    """The funnel events of the hour before `now` at the benchmark's rate: what the gate's look for a
    tab's first event has to search when the site is that busy. In SQL (row by row would take minutes)."""
    with session_factory() as session:
        dialect = session.bind.dialect.name
        moment = now.strftime("%Y-%m-%d %H:%M:%S.%f") if dialect == "sqlite" else now.isoformat()
        session.execute(text(RECENT_EVENTS_SQL[dialect]), {"now": moment, "count": count})
        session.commit()
