"""The ledger through kill -9: leads sold by a real `servicematch worker` process to two local buyers
(shared) and charged to a direct provider (the third seat), the worker killed with SIGKILL again
and again while it routes, posts and settles, started again at once, then drained; `servicematch
ledger check`, run as an operator runs it, finds nothing wrong. PostgreSQL only: SQLite takes one
writer, and the kills are about transactions cut off between a sale and its charge."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest
from delivery_fixtures import CONTACT
from routing.buyer_receivers import BuyerReceiver
from sqlalchemy import func, select

from servicematch.delivery.models import Delivery, DeliveryStatus, TargetKind
from servicematch.intake.checks import CheckedLead
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.models import Lead
from servicematch.intake.service import LeadTransactions, NewLead, build_lead
from servicematch.ledger.models import AccountKind, Terms
from servicematch.ledger.postings import account_for
from servicematch.routing import buyers as directory
from servicematch.routing.models import Auction, OfferStatus, ProviderOffer, Sale
from servicematch.settings import PROJECT_ROOT

LEADS, WAVES, KILLS = 24, 3, 6
KILL_EVERY = 4  # posts
DRAIN_SECONDS = 150
# Short enough that a killed worker's leases run out, and posts in doubt are settled, within the test.
SHORT_TIMES = {"SERVICEMATCH_DELIVERY_LEASE_SECONDS": "5", "SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS": "3",
               "SERVICEMATCH_POST_SETTLE_SECONDS": "20", "SERVICEMATCH_PING_TIMEOUT_MS": "1000",
               "SERVICEMATCH_WORKER_POLL_SECONDS": "0.05"}


@pytest.fixture
def settings(settings):
    """Buyers of the buyers table only: the fixed SERVICEMATCH_BUYER_URL buyer would take a seat."""
    return settings.model_copy(update={"buyer_url": ""})


@pytest.fixture
def buyers():
    started: list[BuyerReceiver] = []
    yield started
    for receiver in started:
        receiver.stop()


class Supervisor:
    """One `servicematch worker`; `kill` kills it with SIGKILL (nothing recorded of what it was doing)
    and starts another at once, as a process supervisor would."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env, self.kills, self.stopping, self._lock = env, 0, False, threading.Lock()
        self.process = self._start()

    def _start(self) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "servicematch.cli", "worker"], cwd=PROJECT_ROOT, env=self.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def kill(self) -> None:
        with self._lock:
            if self.stopping or self.kills >= KILLS:
                return
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.kills += 1
            self.process = self._start()

    def stop(self) -> None:
        with self._lock:
            self.stopping = True  # a kill timed for later does nothing now
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _store(app, settings, count: int) -> None:
    """Leads stored as intake stores them (each its own phone: none is a duplicate), left for the worker to route."""
    index, batch = app.state.catalog, []
    for _ in range(count):
        checked = CheckedLead(service=index.find("hvac", "services"), flow="form",
                              contact={**CONTACT, "phone": f"512555{next(_phones):04d}"},
                              answers={"cq1": "Replace an existing system"})
        lead = build_lead(settings=settings, checked=checked, request_id=f"kill-{os.urandom(8).hex()}",
                          request_hash=os.urandom(16).hex(), is_test=False, click={}, do_not_sell=False)
        evidence = ConsentEvidence(ip_address="203.0.113.7", user_agent="pytest", page_url="", trustedform_cert_url="",
                                   global_privacy_control=False)
        batch.append(NewLead(lead=lead, evidence=evidence))
    LeadTransactions(session_factory=app.state.session_factory, settings=settings, index=index).store_together(batch)


_phones = itertools.count(5000)


def _on_credit(session, kind: str, owner_id: str, name: str) -> None:
    """Credit terms, no limit: whether an account can pay is not what this test is about."""
    account = account_for(session, kind, owner_id, name=name, terms=Terms.CREDIT)
    account.terms, account.credit_limit_cents = Terms.CREDIT, None


def _open_work(session_factory) -> tuple[int, int]:
    """(leads whose auction is missing or open, buyer posts still pending)."""
    with session_factory() as session:
        open_leads = session.scalar(select(func.count()).select_from(Lead).outerjoin(
            Auction, Auction.lead_id == Lead.id).where(Auction.closed_at.is_(None)))
        pending = session.scalar(select(func.count()).select_from(Delivery).where(
            Delivery.kind == TargetKind.BUYER_POST, Delivery.status == DeliveryStatus.PENDING))
    return int(open_leads), int(pending)


def test_ledger_check_finds_nothing_wrong_after_workers_killed_mid_sale(
        app, settings, database_url, session_factory, buyers, add_provider):
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL only: several workers' transactions cut off by kill -9")
    env = {**os.environ, "SERVICEMATCH_DATABASE_URL": database_url, "SERVICEMATCH_ENVIRONMENT": "test",
           "SERVICEMATCH_DATA_KEY": settings.data_key, "SERVICEMATCH_BUYER_URL": "", "SERVICEMATCH_SMTP_HOST": "",
           **SHORT_TIMES}
    supervisor: Supervisor | None = None
    posts = itertools.count(1)

    def kill_now_and_then() -> None:
        """Every KILL_EVERY posts a buyer takes, the worker is killed: at once (mid-post: the buyer has
        the lead and the worker never learns it) or just after the answer (while it records the sale)."""
        number = next(posts)
        if supervisor is None or number % KILL_EVERY:
            return
        if (number // KILL_EVERY) % 2:
            supervisor.kill()
        else:
            threading.Timer(0.1, supervisor.kill).start()

    provider = add_provider("Kill Heating", lead_price_cents=2500)
    with session_factory() as session:
        for number, bid in enumerate((30, 25)):
            receiver = BuyerReceiver(ping_answer={"bid": bid}, on_post=kill_now_and_then).start()
            buyers.append(receiver)
            buyer = directory.add_buyer(session, directory.BuyerTerms(
                name=f"Kill buyer {number}", post_url=receiver.post_url, ping_url=receiver.ping_url, exclusive=False),
                allow_private=True)
            session.flush()
            _on_credit(session, AccountKind.BUYER, buyer.id, buyer.name)
        _on_credit(session, AccountKind.PROVIDER, provider.id, provider.name)
        session.commit()

    supervisor = Supervisor(env)
    try:
        for _wave in range(WAVES):
            _store(app, settings, LEADS // WAVES)
            time.sleep(2)
        deadline = time.monotonic() + DRAIN_SECONDS
        while _open_work(session_factory) != (0, 0) and time.monotonic() < deadline:
            time.sleep(1)
        assert _open_work(session_factory) == (0, 0), "the worker never finished the leads"
    finally:
        supervisor.stop()
    assert supervisor.kills == KILLS
    # A post a buyer took while its worker was killed was sent again (same webhook-id) and sold once.
    # A request cut off by a kill mid-send arrives with no body: the buyer never read it.
    resent = Counter(post.headers["webhook-id"] for receiver in buyers for post in receiver.posts
                     if post.body and "type" not in post.json)
    assert max(resent.values()) >= 2, "no kill landed between a post and its sale"

    with session_factory() as session:
        sales = session.scalar(select(func.count()).select_from(Sale))
        charged_offers = session.scalar(select(func.count()).select_from(ProviderOffer).where(
            ProviderOffer.status == OfferStatus.ACCEPTED))
    assert sales >= LEADS and charged_offers > 0, "the leads were sold (shared: two buyers and the provider)"
    checked = subprocess.run([sys.executable, "-m", "servicematch.cli", "ledger", "check"], cwd=PROJECT_ROOT, env=env,
                             capture_output=True, text=True, timeout=120, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"sales: {sales:,} of {sales:,} charged once" in checked.stdout
    assert f"accepted offers with a price: {charged_offers:,} of {charged_offers:,}" in checked.stdout
    assert "ok: nothing is wrong" in checked.stdout
