"""Leads stored together in one transaction (group commit): each keeps its own outcome."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

import httpx
import pytest
from sqlalchemy import func, select

from servicematch.errors import ServiceMatchError
from servicematch.intake import service
from servicematch.intake import writer as writer_module
from servicematch.intake.checks import check_lead_form
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.intake.schemas import LeadFormSubmission
from servicematch.intake.writer import NOT_SAVED, LeadWriter

from .payloads import lead_form_payload

EVIDENCE = ConsentEvidence(ip_address="192.0.2.1", user_agent="pytest", page_url="", trustedform_cert_url="",
                           global_privacy_control=False)


def rows(app, model) -> int:
    with app.state.session_factory() as session:
        return session.scalar(select(func.count()).select_from(model))


@pytest.fixture
def new_lead(app, index, settings):
    """A checked, built lead ready for store_leads; same `request_id` and `body` make a replay."""

    def make(*, request_id: str | None = None, phone: str = "(512) 555-0199", first: str = "Ann",
             service_slug: str = "hvac") -> service.NewLead:
        config = index.find(service_slug, "services")
        payload = lead_form_payload(config, phone=phone, first=first)
        submission = LeadFormSubmission.model_validate(payload)
        checked = check_lead_form(index=index, service=config, submission=submission, today=date.today())
        request_hash = service.fingerprint({"phone": phone, "first": first, "service": service_slug})
        lead = service.build_lead(settings=settings, checked=checked, request_id=request_id or str(uuid.uuid4()),
                                  request_hash=request_hash, is_test=False, click={}, do_not_sell=False)
        return service.NewLead(lead=lead, evidence=EVIDENCE)

    return make


def store(app, settings, index, batch):
    return service.store_leads(session_factory=app.state.session_factory, settings=settings, index=index,
                               new_leads=batch)


def test_a_batch_stores_every_lead_with_its_consent_record(app, settings, index, new_lead):
    batch = [new_lead(phone=f"(512) 555-01{n:02d}") for n in range(5)]

    outcomes = store(app, settings, index, batch)

    assert [o.id for o in outcomes] == [item.lead.id for item in batch]
    assert rows(app, Lead) == rows(app, ConsentRecord) == 5


def test_replays_inside_a_batch_and_against_stored_leads_answer_with_the_first_lead(
        app, settings, index, new_lead):
    (stored,) = store(app, settings, index, [new_lead(request_id="earlier")])
    twin_of_stored = new_lead(request_id="earlier")
    first = new_lead(request_id="in-batch", phone="(512) 555-0111")
    twin_of_first = new_lead(request_id="in-batch", phone="(512) 555-0111")
    conflicting = new_lead(request_id="in-batch", phone="(512) 555-0111", first="Mario")

    outcomes = store(app, settings, index, [twin_of_stored, first, twin_of_first, conflicting])

    assert outcomes[0].id == stored.id
    assert outcomes[1].id == outcomes[2].id == first.lead.id
    assert isinstance(outcomes[3], ServiceMatchError) and outcomes[3].status_code == 409
    assert rows(app, Lead) == 2


def test_the_same_phone_twice_in_one_batch_flags_the_second_as_duplicate(app, settings, index, new_lead):
    batch = [new_lead(), new_lead(), new_lead(service_slug="roofing")]

    outcomes = store(app, settings, index, batch)

    assert [lead.is_duplicate for lead in outcomes] == [False, True, False]


@contextmanager
def twin_committed_meanwhile(app, settings, index, rival: service.NewLead) -> Iterator[None]:
    """Another process commits `rival` between our reads and our insert of the same requestId."""
    raced = []

    def commit_twin_first(_session, lead, _payload):
        if lead.request_id == rival.lead.request_id and not raced:
            raced.append(True)
            store(app, settings, index, [rival])

    service.on_lead_stored(commit_twin_first)
    try:
        yield
    finally:
        service.remove_lead_stored_hook(commit_twin_first)


def test_a_twin_committed_meanwhile_sends_the_batch_down_one_lead_at_a_time(app, settings, index, new_lead):
    rival = new_lead(request_id="raced")
    batch = [new_lead(phone="(512) 555-0101"), new_lead(request_id="raced"), new_lead(phone="(512) 555-0103")]

    with twin_committed_meanwhile(app, settings, index, rival):
        outcomes = store(app, settings, index, batch)

    assert outcomes[1].id == rival.lead.id  # the same body: the twin's answer
    assert [o.id for o in (outcomes[0], outcomes[2])] == [batch[0].lead.id, batch[2].lead.id]
    assert rows(app, Lead) == rows(app, ConsentRecord) == 3


@pytest.fixture
def batch_sizes(monkeypatch) -> list[int]:
    """How many leads each transaction of the lead writer stored."""
    sizes: list[int] = []

    def counting_store(**kwargs):
        sizes.append(len(kwargs["new_leads"]))
        return service.store_leads(**kwargs)

    monkeypatch.setattr(writer_module, "store_leads", counting_store)
    return sizes


async def test_a_twin_with_another_body_committed_meanwhile_is_a_conflict_not_a_failure(
        app, settings, index, new_lead):
    writer = LeadWriter(session_factory=app.state.session_factory, settings=settings, index=index)
    rival = new_lead(request_id="raced", first="Mario")
    try:
        with twin_committed_meanwhile(app, settings, index, rival), pytest.raises(ServiceMatchError) as refused:
            await writer.store(new_lead(request_id="raced"))
    finally:
        await asyncio.to_thread(writer.stop)

    assert refused.value.status_code == 409
    assert rows(app, Lead) == 1


async def test_concurrent_submissions_share_transactions_and_all_land(app, index, batch_sizes):
    hvac = index.find("hvac", "services")
    payloads = [lead_form_payload(hvac, phone=f"(512) 555-{n:04d}") for n in range(200, 240)]
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://intake.test") as client:
        responses = await asyncio.gather(*(client.post("/api/submit-form", json=p) for p in payloads))

    assert [r.status_code for r in responses] == [202] * len(payloads)
    assert len({r.json()["leadId"] for r in responses}) == len(payloads)
    assert rows(app, Lead) == len(payloads)
    assert sum(batch_sizes) == len(payloads) and max(batch_sizes) > 1


@pytest.mark.parametrize(("wait_ms", "expected"), [(200.0, [2]), (0.0, [1, 1])])
async def test_the_writer_waits_its_batch_wait_for_leads_right_behind(app, settings, index, new_lead,
                                                                      batch_sizes, wait_ms, expected):
    writer = LeadWriter(session_factory=app.state.session_factory, index=index,
                        settings=settings.model_copy(update={"lead_batch_wait_ms": wait_ms}))

    async def second_lead_shortly_after():
        await asyncio.sleep(0.02)
        return await writer.store(new_lead(phone="(512) 555-0102"))

    first = asyncio.ensure_future(writer.store(new_lead(phone="(512) 555-0101")))
    try:
        if wait_ms == 0:
            await first  # nothing waits: the first lead is stored before the second arrives
        await asyncio.gather(first, second_lead_shortly_after())
    finally:
        await asyncio.to_thread(writer.stop)

    assert batch_sizes == expected


async def test_one_failing_lead_does_not_cost_the_others_their_place(app, settings, index, new_lead):
    writer = LeadWriter(session_factory=app.state.session_factory, settings=settings, index=index)
    doomed = new_lead(request_id="doomed")

    def refuse_one(_session, lead, _payload):
        if lead.request_id == "doomed":
            raise RuntimeError("outbox unavailable")

    service.on_lead_stored(refuse_one)
    try:
        results = await asyncio.gather(
            *(writer.store(item) for item in [new_lead(phone="(512) 555-0101"), doomed,
                                              new_lead(phone="(512) 555-0103")]),
            return_exceptions=True,
        )
    finally:
        service.remove_lead_stored_hook(refuse_one)
        writer.stop()

    assert isinstance(results[1], ServiceMatchError)
    assert results[1].status_code == 503 and results[1].error == NOT_SAVED
    assert all(isinstance(result, Lead) for result in (results[0], results[2]))
    assert rows(app, Lead) == 2


async def test_a_writer_that_cannot_answer_in_time_says_so(app, settings, index, new_lead):
    writer = LeadWriter(session_factory=app.state.session_factory, settings=settings, index=index,
                        wait_seconds=0.2)
    release = asyncio.Event()
    loop = asyncio.get_running_loop()

    def stall(_session, _lead, _payload):
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result(timeout=10)

    service.on_lead_stored(stall)
    try:
        with pytest.raises(ServiceMatchError) as refused:
            await writer.store(new_lead())
        service.remove_lead_stored_hook(stall)
        release.set()
        # The writer lives on for the next request.
        assert isinstance(await writer.store(new_lead(phone="(512) 555-0101")), Lead)
    finally:
        service.remove_lead_stored_hook(stall)
        await asyncio.to_thread(writer.stop)

    assert refused.value.status_code == 503 and refused.value.headers == {"Retry-After": "5"}
    # The late lead was still stored: a retry with its requestId replays it.
    assert rows(app, Lead) == 2
