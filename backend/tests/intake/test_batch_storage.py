"""Lead stores: leads stored together (group commit) or alone, each keeping its own outcome.

Tests of the LeadStore contract run against both stores; the rest are about batching.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import date

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.app import create_app
from servicematch.errors import ServiceMatchError
from servicematch.intake import service
from servicematch.intake.checks import check_lead_form
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.intake.schemas import LeadFormSubmission
from servicematch.intake.store import NOT_SAVED, SimpleLeadStore
from servicematch.intake.writer import BatchedLeadStore

from .payloads import lead_form_payload

EVIDENCE = ConsentEvidence(ip_address="192.0.2.1", user_agent="pytest", page_url="", trustedform_cert_url="",
                           global_privacy_control=False)
STORES = ["batched", "simple"]


class ScriptedTransactions(service.LeadTransactions):
    """Lead transactions that first run whatever a test makes happen inside the lead's transaction."""

    before: Callable[[Session, Lead], None] | None = None

    def _insert(self, session: Session, fresh: list[service.NewLead]) -> None:
        if self.before is not None:
            for item in fresh:
                self.before(session, item.lead)
        super()._insert(session, fresh)


def rows(app, model) -> int:
    with app.state.session_factory() as session:
        return session.scalar(select(func.count()).select_from(model))


@pytest.fixture
def transactions(app, settings, index) -> ScriptedTransactions:
    return ScriptedTransactions(session_factory=app.state.session_factory, settings=settings, index=index)


@pytest.fixture
def side_effects(transactions) -> ScriptedTransactions:
    """Where a test scripts what happens inside the lead's transaction (`.before`)."""
    return transactions


@pytest.fixture
def make_store(transactions, settings):
    """A LeadStore of either kind on `transactions`, stopped after the test."""
    made = []

    def make(kind: str, *, batch_wait_ms: float | None = None, wait_seconds: float = 30.0):
        if kind == "simple":
            store = SimpleLeadStore(transactions, wait_seconds=wait_seconds)
        else:
            wait = settings.lead_batch_wait_ms if batch_wait_ms is None else batch_wait_ms
            store = BatchedLeadStore(transactions, batch_wait_ms=wait, wait_seconds=wait_seconds)
        made.append(store)
        return store

    yield make
    for store in made:
        store.stop()


@pytest.fixture
def new_lead(app, index, settings):
    """A checked, built lead ready to store; same `request_id` and `body` make a replay."""

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


def test_a_batch_stores_every_lead_with_its_consent_record(app, transactions, new_lead):
    batch = [new_lead(phone=f"(512) 555-01{n:02d}") for n in range(5)]

    outcomes = transactions.store_together(batch)

    assert [o.lead.id for o in outcomes] == [item.lead.id for item in batch]
    assert rows(app, Lead) == rows(app, ConsentRecord) == 5


def test_replays_inside_a_batch_and_against_stored_leads_answer_with_the_first_lead(
        app, transactions, new_lead):
    (stored,) = transactions.store_together([new_lead(request_id="earlier")])
    twin_of_stored = new_lead(request_id="earlier")
    first = new_lead(request_id="in-batch", phone="(512) 555-0111")
    twin_of_first = new_lead(request_id="in-batch", phone="(512) 555-0111")
    conflicting = new_lead(request_id="in-batch", phone="(512) 555-0111", first="Mario")

    outcomes = transactions.store_together([twin_of_stored, first, twin_of_first, conflicting])

    assert outcomes[0].lead.id == stored.lead.id
    assert outcomes[1].lead.id == outcomes[2].lead.id == first.lead.id
    assert isinstance(outcomes[3], ServiceMatchError) and outcomes[3].status_code == 409
    assert rows(app, Lead) == 2


def test_the_same_phone_twice_in_one_batch_flags_the_second_as_duplicate(transactions, new_lead):
    batch = [new_lead(), new_lead(), new_lead(service_slug="roofing")]

    outcomes = transactions.store_together(batch)

    assert [stored.lead.is_duplicate for stored in outcomes] == [False, True, False]


@contextmanager
def twin_committed_meanwhile(transactions, side_effects, rival: service.NewLead) -> Iterator[None]:
    """Another process commits `rival` between our reads and our insert of the same requestId."""
    raced = []

    def commit_twin_first(_session, lead):
        if lead.request_id == rival.lead.request_id and not raced:
            raced.append(True)
            transactions.store_together([rival])

    side_effects.before = commit_twin_first
    try:
        yield
    finally:
        side_effects.before = None


async def test_a_twin_committed_meanwhile_sends_the_batch_down_one_lead_at_a_time(
        app, transactions, side_effects, make_store, new_lead):
    store = make_store("batched", batch_wait_ms=200)  # long enough for the three to share a batch
    rival = new_lead(request_id="raced")
    batch = [new_lead(phone="(512) 555-0101"), new_lead(request_id="raced"), new_lead(phone="(512) 555-0103")]

    with twin_committed_meanwhile(transactions, side_effects, rival):
        outcomes = await asyncio.gather(*(store.store(item) for item in batch))

    assert outcomes[1].lead.id == rival.lead.id  # the same body: the twin's answer
    assert [o.lead.id for o in (outcomes[0], outcomes[2])] == [batch[0].lead.id, batch[2].lead.id]
    assert rows(app, Lead) == rows(app, ConsentRecord) == 3


@pytest.fixture
def batch_sizes(monkeypatch) -> Callable[[service.LeadTransactions], list[int]]:
    """How many leads each transaction of the given LeadTransactions stored."""

    def watch(transactions: service.LeadTransactions) -> list[int]:
        sizes: list[int] = []
        store_together = transactions.store_together

        def counting(new_leads):
            sizes.append(len(new_leads))
            return store_together(new_leads)

        monkeypatch.setattr(transactions, "store_together", counting)
        return sizes

    return watch


@pytest.mark.parametrize("kind", STORES)
async def test_a_twin_with_another_body_committed_meanwhile_is_a_conflict_not_a_failure(
        app, transactions, side_effects, make_store, new_lead, kind):
    store = make_store(kind)
    rival = new_lead(request_id="raced", first="Mario")
    with twin_committed_meanwhile(transactions, side_effects, rival), pytest.raises(ServiceMatchError) as refused:
        await store.store(new_lead(request_id="raced"))

    assert refused.value.status_code == 409
    assert rows(app, Lead) == 1


@contextmanager
def app_with_store(settings, kind: str):
    """The app with the given LeadStore (the `app` fixture, requested too, empties the tables after)."""
    served = create_app(settings.model_copy(update={"lead_store": kind}))
    try:
        yield served
    finally:
        served.state.lead_store.stop()
        served.state.engine.dispose()


@pytest.mark.parametrize("kind", STORES)
async def test_concurrent_submissions_all_land_and_batched_ones_share_transactions(
        app, settings, index, batch_sizes, kind):
    hvac = index.find("hvac", "services")
    payloads = [lead_form_payload(hvac, phone=f"(512) 555-{n:04d}") for n in range(200, 240)]
    with app_with_store(settings, kind) as served:
        sizes = batch_sizes(served.state.lead_store.transactions)
        transport = httpx.ASGITransport(app=served)
        async with httpx.AsyncClient(transport=transport, base_url="http://intake.test") as client:
            responses = await asyncio.gather(*(client.post("/api/submit-form", json=p) for p in payloads))

    assert [r.status_code for r in responses] == [202] * len(payloads)
    assert len({r.json()["leadId"] for r in responses}) == len(payloads)
    assert rows(app, Lead) == len(payloads)
    assert sum(sizes) == len(payloads)
    assert max(sizes) > 1 if kind == "batched" else set(sizes) == {1}


@pytest.mark.parametrize(("wait_ms", "expected"), [(200.0, [2]), (0.0, [1, 1])])
async def test_the_batched_store_waits_its_batch_wait_for_leads_right_behind(
        transactions, make_store, new_lead, batch_sizes, wait_ms, expected):
    sizes = batch_sizes(transactions)
    store = make_store("batched", batch_wait_ms=wait_ms)

    async def second_lead_shortly_after():
        await asyncio.sleep(0.02)
        return await store.store(new_lead(phone="(512) 555-0102"))

    first = asyncio.ensure_future(store.store(new_lead(phone="(512) 555-0101")))
    if wait_ms == 0:
        await first  # nothing waits: the first lead is stored before the second arrives
    await asyncio.gather(first, second_lead_shortly_after())

    assert sizes == expected


@pytest.mark.parametrize("kind", STORES)
async def test_one_failing_lead_does_not_cost_the_others_their_place(
        app, side_effects, make_store, new_lead, kind):
    store = make_store(kind, batch_wait_ms=200)
    doomed = new_lead(request_id="doomed")

    def refuse_one(_session, lead):
        if lead.request_id == "doomed":
            raise RuntimeError("outbox unavailable")

    side_effects.before = refuse_one
    results = await asyncio.gather(
        *(store.store(item) for item in [new_lead(phone="(512) 555-0101"), doomed, new_lead(phone="(512) 555-0103")]),
        return_exceptions=True,
    )

    assert isinstance(results[1], ServiceMatchError)
    assert results[1].status_code == 503 and results[1].error == NOT_SAVED
    assert all(isinstance(result, service.StoredLead) for result in (results[0], results[2]))
    assert rows(app, Lead) == 2


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not await asyncio.to_thread(condition):
        assert time.monotonic() < deadline, "the condition did not come true in time"
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("kind", STORES)
async def test_a_store_that_cannot_answer_in_time_says_so(app, side_effects, make_store, new_lead, kind):
    # Long enough for a commit on a busy machine, short enough to keep the test quick.
    store = make_store(kind, wait_seconds=1.0)
    release = asyncio.Event()
    loop = asyncio.get_running_loop()

    def stall(_session, _lead):
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result(timeout=10)

    side_effects.before = stall
    with pytest.raises(ServiceMatchError) as refused:
        await store.store(new_lead())
    side_effects.before = None
    release.set()
    await until(lambda: rows(app, Lead) == 1)  # the late lead is committed all the same
    # The store lives on for the next request.
    assert isinstance(await store.store(new_lead(phone="(512) 555-0101")), service.StoredLead)
    await asyncio.to_thread(store.stop)

    assert refused.value.status_code == 503 and refused.value.headers == {"Retry-After": "5"}
    # The late lead was still stored: a retry with its requestId replays it.
    assert rows(app, Lead) == 2


def test_leads_waiting_on_two_event_loops_share_a_batch_and_each_hears_its_own_outcome(
        transactions, make_store, new_lead, batch_sizes):
    # A batch answers each event loop with one wake-up for all its leads: the answers must
    # still reach the loop, and the request, each lead came from.
    sizes = batch_sizes(transactions)
    store = make_store("batched", batch_wait_ms=500)
    leads = [new_lead(phone="(512) 555-0101"), new_lead(phone="(512) 555-0102"), new_lead(request_id="reused"),
             new_lead(request_id="reused", first="Mario")]

    def on_a_loop_of_its_own(item: service.NewLead):
        try:
            return asyncio.run(store.store(item))
        except ServiceMatchError as refusal:
            return refusal

    with ThreadPoolExecutor(len(leads)) as pool:
        outcomes = list(pool.map(on_a_loop_of_its_own, leads))

    assert sizes == [4]
    assert [outcome.lead.id for outcome in outcomes[:2]] == [item.lead.id for item in leads[:2]]
    # Whichever of the two reusing one requestId was queued first is stored; the other hears 409.
    refused = [outcome for outcome in outcomes[2:] if isinstance(outcome, ServiceMatchError)]
    stored = [(outcome, item) for outcome, item in zip(outcomes[2:], leads[2:], strict=True)
              if not isinstance(outcome, ServiceMatchError)]
    assert [refusal.status_code for refusal in refused] == [409]
    assert [outcome.lead.id == item.lead.id for outcome, item in stored] == [True]
