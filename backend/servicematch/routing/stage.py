"""Routing, run by the worker: consume "lead accepted" events, run each lead's auction, commit the
outcome, then let delivery send it; settle each buyer post's answer (sold, or on to the next bid).

The order that keeps a lead safe through a crash:
1. an event is claimed under a lease (a worker that dies leaves it to another after the lease);
2. buyers are pinged with no transaction open (nothing is sold yet: a crash here only repeats pings);
3. one transaction records the bids and the outcome, writes the first posts (delivery rows) and
   marks the event done (several leads' outcomes, and the answers of posts of other leads, share a
   transaction when they come in together); only then does anything with personal data leave. A
   bid its buyer cannot pay (balance plus credit, less what is posted to it and not answered:
   routing/paying.py) is a pass saying so, and the buyer is held until it can pay;
4. each post's answer, once delivery has recorded it, is settled here: a sale, charged to the
   buyer's ledger account in the same transaction, or the next bid (if its buyer can pay now).
   At most one post of an exclusive lead is ever under way. A post whose answer is unknown (lost
   in a crash, a timeout, a 5xx) is in doubt: delivery sends it again to the same buyer (same
   webhook-id) until it answers definitely or SERVICEMATCH_POST_SETTLE_SECONDS pass, and the lead
   goes to nobody else meanwhile; an exclusive post given up in doubt ends the auction, so an
   exclusive lead is never sold twice. Every buyer that received the details counts towards the
   three companies, whatever it answered;
5. when nothing is left to post, the auction closes and the consent receipt is queued, naming
   exactly who received the consumer's details.
"""

from __future__ import annotations

import functools
import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy import (
    Boolean,
    DateTime,
    Integer,
    String,
    Text,
    and_,
    bindparam,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.orm import Session, joinedload, sessionmaker

from servicematch.address.directory import load_zip_data
from servicematch.catalog.loader import cached_catalog
from servicematch.db.arrays import as_json, json_recordset
from servicematch.delivery.models import Delivery, DeliveryStatus, TargetKind
from servicematch.delivery.outbox import enqueue_buyer_post, enqueue_fixed_buyer
from servicematch.intake.models import Lead, LeadEvent
from servicematch.kernel import wakeup
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.logs import LEAD_REFERENCE
from servicematch.kernel.metrics import count_bid, observe_auction
from servicematch.kernel.references import shown_reference
from servicematch.outbound.loop_sender import LoopSender
from servicematch.privacy.actions import suppressed_keys
from servicematch.privacy.contacts import keys_of_lead
from servicematch.privacy.holds import withdrawal_reasons
from servicematch.privacy.notices import enqueue_discard, post_answers
from servicematch.privacy.wiring import enqueue_receipt
from servicematch.quality.gate import QualityGate
from servicematch.routing.auction import MAX_COMPANIES, Next, Offer, next_step
from servicematch.routing.buyers import (
    Place,
    Spending,
    fixed_buyer_listed,
    fixed_buyer_skip,
    lead_partners,
    qualifying_buyers_each,
    within_budget,
)
from servicematch.routing.gatekeeping import (
    GateReads,
    Verdict,
    apply,
    barred_reason,
    judge,
    read_for_gate,
)
from servicematch.routing.matching import match_providers
from servicematch.routing.models import Auction, AuctionStep, Buyer, Sale, StepKind
from servicematch.routing.offers import charge_description, providers_holding_seats, route_matched
from servicematch.routing.paying import Purse
from servicematch.routing.pings import Bid, lost_to_our_delay, run_pings
from servicematch.settings import Settings

log = logging.getLogger("servicematch.routing")

# Leads whose auctions run at once in one worker (each mostly waits for its buyers' answers).
CONCURRENT_AUCTIONS = 32
# How many times a lead's buyers are pinged while none of them bid and some were lost to our own
# delay (a worker too busy to send a ping or read its answer in time, as one just restarted under
# load): they are pinged again rather than the lead left unsold for a fault of ours. The gate's
# verdict (and its paid lookups) stands; the last round's answers are decided, whatever they are.
# Should the rounds outlast the claim's lease, the decision finds the event taken over and leaves
# the lead to the worker that took it.
PING_ROUNDS_FOR_OUR_DELAY = 3
# The most leads whose outcomes one transaction commits.
DECISIONS_AT_ONCE = 64
# While other auctions are still pinging, the decider waits this long after the first outcome or
# answer of a batch before taking the batch: under load more come within milliseconds, and one
# transaction for several costs a fraction of one each (with the dispatcher's own gathering, at 50
# leads a second, 15.2 against 17.6 ms of worker CPU a lead on SQLite, and a shorter tail, since the
# threads contend less; docs/delivery.md, item 12). A lead waits at most this long more; a quiet
# worker, with no other auction under way, not at all.
GATHER_SECONDS = 0.015
# An auction still open this long after its last step is looked at again (a settle that was lost).
STUCK_AFTER = timedelta(seconds=30)
# The days of leads whose revenue counts one transaction has reopened already (session.info).
_DAYS_REOPENED = "servicematch.routing.days_reopened"
# The steps a transaction has yet to write (session.info), in one insert before its commit.
_STEPS_TO_WRITE = "servicematch.routing.steps_to_write"


@dataclass(frozen=True)
class _Decision:
    """A lead whose bids are in, waiting for its outcome to be committed."""

    event_id: str
    lead_id: str
    token: str
    bids: list[Bid]
    suppressed: bool
    partners: frozenset[str]
    verdict: Verdict = field(default_factory=Verdict)


@dataclass(frozen=True)
class _Prepared:
    """A claimed lead with what its auction needs, read with the rest of its round."""

    event_id: str
    token: str
    lead: Lead  # detached, its consent loaded
    now: datetime
    suppressed: bool  # its consumer opted out of sale since it was taken
    sellable: bool
    buyers: list[Buyer]  # whose terms take it, under their daily caps
    spent: dict[str, Spending]
    reads: GateReads
    partners: frozenset[str]


class _Decider:
    """One thread that commits outcomes and settles post answers, in batches: each lead's auction
    thread hands it the bids and waits; the delivery dispatcher hands it the posts whose answers it
    recorded and goes on claiming and sending. Whatever arrived while the last batch was committing
    goes in the next one, outcomes and answers in one transaction, so under load a transaction
    carries many leads and quiet, one; and the dispatcher never waits for a settlement (nor for the
    lock decisions take). Should a batch fail, its outcomes and its answers are taken apart, and
    then its leads one at a time, so one bad lead holds up no other."""

    def __init__(self, decide_together: Callable[[list[_Decision]], None],
                 settle: Callable[[list[str]], None] | None = None,
                 warm_up: Callable[[], None] | None = None,
                 more_coming: Callable[[], bool] = lambda: False,
                 both: Callable[[list[_Decision], list[str]], None] | None = None) -> None:
        self._decide_together = decide_together
        self._settle = settle
        self._both = both
        self._warm_up = warm_up
        self._more_coming = more_coming
        self._waiting: queue.SimpleQueue[tuple[_Decision | list[str], Future] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="routing-decider", daemon=True)
        self._thread.start()

    def decide(self, decision: _Decision) -> Future:
        future: Future = Future()
        self._waiting.put((decision, future))
        return future

    def settle(self, delivery_ids: list[str]) -> Future:
        """Settle the answers of these posts after the decisions queued before them."""
        future: Future = Future()
        self._waiting.put((list(delivery_ids), future))
        return future

    def close(self) -> None:
        self._waiting.put(None)
        self._thread.join()

    def _run(self) -> None:
        if self._warm_up is not None:
            # Before the first batch, not in it: the first leads of a new worker wait for their pings
            # meanwhile, not for the look-ups a sale needs being built.
            try:
                self._warm_up()
            except Exception:  # built again (or failing again) at the first sale that needs it
                log.exception("warming up the decider's look-ups failed")
        while True:
            batch = [self._waiting.get()]
            if batch[0] is not None and self._more_coming():
                time.sleep(GATHER_SECONDS)
            while len(batch) < DECISIONS_AT_ONCE and batch[-1] is not None:
                try:
                    batch.append(self._waiting.get_nowait())
                except queue.Empty:
                    break
            stopping = batch[-1] is None
            work = [item for item in batch if item is not None]
            decisions = [item for item in work if isinstance(item[0], _Decision)]
            answers = [item for item in work if isinstance(item[0], list)]
            if not (decisions and answers and self._together(decisions, answers)):
                self._commit(decisions)
                self._settle_all(answers)
            if stopping:
                return

    def _together(self, decisions: list[tuple[_Decision, Future]], answers: list[tuple[list[str], Future]]) -> bool:
        """Outcomes and answers in one transaction, whether it committed; if not, each kind is taken
        again on its own (one lead at a time should a batch fail), so one bad lead holds up no other."""
        if self._both is None:
            return False
        try:
            self._both([decision for decision, _ in decisions],
                       [delivery_id for delivery_ids, _ in answers for delivery_id in delivery_ids])
        except Exception:
            log.exception("deciding %d leads and settling %d answers together failed; taking them apart",
                          len(decisions), sum(len(ids) for ids, _ in answers))
            return False
        for _, future in decisions + answers:
            future.set_result(None)
        return True

    def _settle_all(self, batch: list[tuple[list[str], Future]]) -> None:
        if not batch:
            return
        try:
            self._settle([delivery_id for delivery_ids, _ in batch for delivery_id in delivery_ids])
        except Exception as exc:  # the sweep settles what is left open
            log.exception("settling the answers of %d posts failed", sum(len(ids) for ids, _ in batch))
            for _, future in batch:
                future.set_exception(exc)
            return
        for _, future in batch:
            future.set_result(None)

    def _commit(self, batch: list[tuple[_Decision, Future]]) -> None:
        if not batch:
            return
        try:
            self._decide_together([decision for decision, _ in batch])
        except Exception as exc:
            if len(batch) == 1:
                batch[0][1].set_exception(exc)
                return
            log.exception("deciding %d leads together failed; deciding them one at a time", len(batch))
            for decision, future in batch:
                try:
                    self._decide_together([decision])
                except Exception as alone:  # noqa: BLE001 (the lead's auction thread logs it)
                    future.set_exception(alone)
                else:
                    future.set_result(None)
            return
        for _, future in batch:
            future.set_result(None)


def _ms_since(lead: Lead) -> int:
    return max(0, int((utcnow() - as_utc(lead.created_at)).total_seconds() * 1000))


class RoutingStage:
    """Routes accepted leads; `start_due` claims and starts auctions for the free slots."""

    def __init__(self, *, session_factory: sessionmaker[Session], settings: Settings,
                 clock: Callable[[], datetime] = utcnow,
                 on_sale: Callable[[Session, Lead], None] | None = None) -> None:
        self.session_factory = session_factory
        self.settings = settings
        self.clock = clock
        # Called in the transaction that records a sale (the dashboard's counts of the lead's
        # day are forgotten, servicematch.workers), so routing imports nothing of the reports.
        self.on_sale = on_sale
        self._auctions = ThreadPoolExecutor(CONCURRENT_AUCTIONS, thread_name_prefix="routing")
        # Every auction's pings in flight at once on one event loop thread.
        self._pings = LoopSender(allow_private=settings.private_webhooks_allowed, name="routing-pings")
        self._lock = threading.Lock()
        # Decisions are taken one at a time in a worker (caps and turns are read, then written);
        # workers side by side on PostgreSQL take turns through the providers' row locks.
        self._deciding = threading.Lock()
        self._running: set[Future] = set()
        self._reading = 0  # leads claimed whose round is being read, not yet running on their own
        self._pinging = 0  # auctions whose bids are not yet handed to the decider
        self._settling: set[Future] = set()  # answers handed to the decider, not yet settled
        self._decisions = _Decider(self._decide_together, self.settle_now, warm_up=self._warm_up,
                                   more_coming=self._auctions_pinging, both=self._decide_and_settle)
        self.gate = QualityGate(settings)
        self.changed = threading.Event()
        self._last_sweep = 0.0

    def _auctions_pinging(self) -> bool:
        with self._lock:
            return self._pinging > 0

    def _warm_up(self) -> None:
        """What every sale reads and a new process loads on first use, loaded at the start: the ZIP
        data (a sale's statement line names the lead's city; 0.4 s to load, more on a busy machine)
        and the catalogue (the service's name)."""
        load_zip_data()
        cached_catalog(self.settings.catalog_dir)

    # -- events -------------------------------------------------------------------------------

    def start_due(self) -> int:
        """Claim pending events for the free slots and start their auctions; how many started. The
        round's reads run on an auction thread, so the dispatcher goes straight back to sending."""
        with self._lock:
            free = CONCURRENT_AUCTIONS - len(self._running) - self._reading
        if free <= 0:
            return 0
        claimed = self._claim(free)
        if claimed:
            with self._lock:
                self._reading += len(claimed)
            self._start(self._start_round, claimed)
        return len(claimed)

    def _start(self, work: Callable, *args) -> None:
        future = self._auctions.submit(work, *args)
        with self._lock:
            self._running.add(future)
        future.add_done_callback(self._finished)

    def _start_round(self, claimed: list[tuple[str, str, str]]) -> None:
        """Read a claimed round, then start each lead's auction on a thread of its own. Each is
        counted as running before the round is done, so the stage never looks idle in between."""
        try:
            for prepared in self._read_round(claimed):
                try:
                    self._start(self._auction_safely, prepared)
                except RuntimeError:  # shutting down: no new threads, so this one runs the auction
                    self._auction_safely(prepared)
        finally:
            with self._lock:
                self._reading -= len(claimed)

    def busy(self) -> bool:
        with self._lock:
            return bool(self._running or self._settling)

    def wait(self) -> None:
        """Until every auction under way has committed its outcome and every answer handed over
        is settled."""
        while True:
            with self._lock:
                running = list(self._running | self._settling)
            if not running:
                return
            for future in running:
                future.exception()

    def close(self) -> None:
        self._auctions.shutdown(wait=True)
        self._pings.close()
        self._decisions.close()
        self.gate.close()

    def _settled(self, future: Future) -> None:
        with self._lock:
            self._settling.discard(future)
        self.changed.set()

    def _finished(self, future: Future) -> None:
        with self._lock:
            self._running.discard(future)
        self.changed.set()

    def _claim(self, limit: int) -> list[tuple[str, str, str]]:
        now = self.clock()
        lease = now + timedelta(seconds=max(30.0, self.settings.ping_timeout_ms / 1000 * 4))
        token = uuid.uuid4().hex
        with self.session_factory() as session:
            rows = session.execute(_claimable_events(session.bind.dialect.name),
                                   {"now": now, "limit": limit}).all()
            if not rows:
                return []
            session.execute(_CLAIM_EVENTS, {"ids": [row.id for row in rows], "lease": lease, "token": token})
            session.commit()
        return [(row.id, row.lead_id, token) for row in rows]

    def _read_round(self, claimed: list[tuple[str, str, str]]) -> list[_Prepared]:
        """What the auctions of a round of claimed leads need before their pings, read together;
        should that fail, one lead at a time, so one bad lead holds up no other (its event's
        lease runs out and another round routes it again)."""
        if not claimed:
            return []
        try:
            return self._read_together(claimed)
        except Exception:
            if len(claimed) == 1:
                log.exception("routing lead %s failed; it is routed again after its lease", claimed[0][1])
                return []
            log.exception("reading a round of %d leads failed; reading them one at a time", len(claimed))
        prepared = []
        for one in claimed:
            try:
                prepared += self._read_together([one])
            except Exception:
                log.exception("routing lead %s failed; it is routed again after its lease", one[1])
        return prepared

    def _read_together(self, claimed: list[tuple[str, str, str]]) -> list[_Prepared]:
        """The round's leads, whether their consumers opted out, their buyers and what those spent,
        and what the quality gate needs: one statement each for the whole round."""
        now = self.clock()
        with self.session_factory() as session:
            leads = {lead.id: lead for lead in session.scalars(
                _leads_with_consent(), {"ids": [lead_id for _, lead_id, _ in claimed]})}
            # A lead erased meanwhile is not routed: its event went with it.
            present = [(event_id, leads[lead_id], token) for event_id, lead_id, token in claimed if lead_id in leads]
            opted_out = suppressed_keys(session=session, keys=[key for _, lead, _ in present if not lead.do_not_sell
                                                               for key in keys_of_lead(lead)])
            suppressed = {lead.id: not lead.do_not_sell and any(key in opted_out for key in keys_of_lead(lead))
                          for _, lead, _ in present}
            # A duplicate by the site's rule may still go to a buyer with a duplicate rule of its own.
            sellable = {lead.id: not (lead.do_not_sell or suppressed[lead.id] or barred_reason(lead))
                        for _, lead, _ in present}
            buyers, spent = qualifying_buyers_each(
                session, {lead.id: Place(lead.vertical, lead.service, lead.state, lead.zip)
                          for _, lead, _ in present if sellable[lead.id]}, now)
            reads = read_for_gate(session, [(lead, buyers.get(lead.id, [])) for _, lead, _ in present], self.settings)
            # Only companies on the marketing-partners list the consumer saw get the lead.
            partners = {lead.id: lead_partners(session, lead) for _, lead, _ in present}
            session.expunge_all()
        return [_Prepared(event_id, token, lead, now, suppressed[lead.id], sellable[lead.id],
                          buyers.get(lead.id, []), spent, reads[lead.id], partners[lead.id])
                for event_id, lead, token in present]

    def _auction_safely(self, prepared: _Prepared) -> None:
        # Log lines of this auction name its lead.
        named = LEAD_REFERENCE.set(shown_reference(prepared.lead.reference))
        try:
            self._auction(prepared)
        except Exception:
            # The event's lease runs out and another round routes the lead again.
            log.exception("routing lead %s failed; it is routed again after its lease", prepared.lead.id)
        finally:
            LEAD_REFERENCE.reset(named)

    # -- one lead -----------------------------------------------------------------------------

    def route(self, event_id: str, lead_id: str, token: str) -> None:
        """Route one claimed lead, in this thread: read, ping, decide, commit the outcome with the
        first posts, and mark the event done (what a round does for each of its leads)."""
        for prepared in self._read_together([(event_id, lead_id, token)]):
            self._auction(prepared)

    def _auction(self, prepared: _Prepared) -> None:
        """Judge, ping, decide, commit the outcome with the first posts, and mark the event done."""
        with self._lock:
            self._pinging += 1
        try:
            decision = self._bids(prepared)
        finally:
            with self._lock:
                self._pinging -= 1
        # Decided with the other leads whose bids are in, in one transaction; this thread waits for
        # its commit, so an auction counts as under way until its outcome is committed.
        self._decisions.decide(decision).result()

    def _bids(self, prepared: _Prepared) -> _Decision:
        """The gate's verdict and the buyers' bids: what the lead's outcome is decided from."""
        lead, buyers = prepared.lead, prepared.buyers
        # A session of its own for the buyers' duplicate rules (it connects only if one reads).
        with self.session_factory() as session:
            verdict = judge(session, lead, prepared.reads, gate=self.gate, buyers=buyers, now=prepared.now,
                            sellable=prepared.sellable)
        if verdict.held or barred_reason(lead):
            buyers = []
        # Buyers the gate keeps from this lead are not pinged: a pass saying why.
        turned_away = [Bid(buyer.id, None, buyer.exclusive, _ms_since(lead), pinged=False,
                           detail=verdict.excluded[buyer.id]) for buyer in buyers if buyer.id in verdict.excluded]
        buyers = [buyer for buyer in buyers if buyer.id not in verdict.excluded]
        pinging = time.monotonic()
        for round_number in range(1, PING_ROUNDS_FOR_OUR_DELAY + 1):
            bids = turned_away + run_pings(lead=lead, buyers=buyers, sender=self._pings,
                                           timeout_ms=self.settings.ping_timeout_ms,
                                           max_bid_cents=self.settings.max_bid_cents,
                                           since=lambda: _ms_since(lead), partners=prepared.partners)
            if any(bid.cents is not None for bid in bids) or not any(lost_to_our_delay(bid) for bid in bids):
                break
            if round_number < PING_ROUNDS_FOR_OUR_DELAY:
                log.warning("lead %s: buyers' pings were lost to this worker's own delay; pinging again", lead.id)
        if buyers:
            observe_auction(time.monotonic() - pinging)
        by_id = {buyer.id: buyer for buyer in buyers}
        bids = [_within_budget(bid, by_id[bid.buyer_id], prepared.spent[bid.buyer_id]) if bid.buyer_id in by_id else bid
                for bid in bids]
        for bid in bids:
            count_bid(bid.buyer_id, _bid_outcome(bid))
        return _Decision(prepared.event_id, lead.id, prepared.token, bids, prepared.suppressed, prepared.partners,
                         verdict)

    def _decide_together(self, decisions: list[_Decision]) -> None:
        """Commit the outcomes of several leads at once (one transaction, one commit): their events
        marked done, their leads and any withdrawals read, in one statement each for the batch."""
        self._decide_and_settle(decisions, [])

    def _decide_and_settle(self, decisions: list[_Decision], delivery_ids: list[str], *,
                           lead_ids: list[str] = ()) -> None:
        """One transaction for a batch of the decider's work: the answers of these posts (and any
        open auctions of `lead_ids`) settled, then these outcomes committed. Each kind is read in one
        statement a table for the batch, and one purse serves both, so the buyers' accounts are read
        once and written once, in id order, after the auctions' row locks (the order every settling
        transaction takes them in: no two workers wait on each other)."""
        with self._deciding, self.session_factory() as session:
            if delivery_ids:
                lead_ids = [*lead_ids, *session.scalars(_LEADS_OF_POSTS, {"ids": list(delivery_ids)})]
            settling = _read_settling(session, sorted(set(lead_ids))) if lead_ids else _Settling()
            deciding = _read_deciding(session, decisions, self.clock()) if decisions else _Deciding()
            # Who may pay what: the batch's bidders' accounts read once, kept up to date as it goes.
            purse = Purse(session, settling.bidders() | deciding.bidders(), self.clock())
            for auction in settling.auctions:
                if (lead := settling.leads.get(auction.lead_id)) is not None:
                    self._advance(session, lead, auction, steps=settling.steps.get(lead.id, []),
                                  posts=settling.posts.get(lead.id, []), purse=purse)
            for decision in deciding.mine:
                if (lead := deciding.leads.get(decision.lead_id)) is not None:
                    self._decide(session, decision, lead, deciding.withdrawn.get(lead.id), purse)
            purse.close(session)
            _write_steps(session)
            session.commit()

    def _decide(self, session: Session, decision: _Decision, lead: Lead, withdrawn: str | None,
                purse: Purse) -> None:
        """Record a lead's bids and outcome with its first posts. A bid its buyer cannot pay is a
        pass saying so (with the bid), and the next bid wins."""
        lead_id = decision.lead_id
        if decision.suppressed:
            lead.do_not_sell = True
        apply(lead, decision.verdict)
        if withdrawn:
            # Stopped or erased before it was routed: nobody gets it, and no receipt goes out.
            session.add(Auction(lead_id=lead_id, mode=None, providers_routed=True, closed_at=self.clock(),
                                created_at=self.clock()))
            session.add(_step(lead_id, StepKind.CLOSED, at_ms=_ms_since(lead), detail=withdrawn))
            enqueue_receipt(session=session, lead=lead, skip_reason=f"not sent: {withdrawn}")
            return
        if decision.verdict.held:
            # No auction until an operator releases it (a new event) or rejects it: nobody has it yet.
            return
        auction = Auction(lead_id=lead_id, mode=None, providers_routed=False, created_at=self.clock())
        session.add(auction)
        rows = []
        for bid in decision.bids:
            if bid.pinged:
                rows.append(_step_row(lead_id, StepKind.PING, buyer_id=bid.buyer_id, at_ms=bid.at_ms,
                                      exclusive=bid.exclusive))
            kind, detail = (StepKind.BID if bid.cents is not None else StepKind.PASS), bid.detail
            if bid.cents is not None and (refusal := purse.refusal(bid.buyer_id, bid.cents)):
                kind, detail = StepKind.PASS, refusal
                purse.refused(bid.buyer_id, refusal)
            rows.append(_step_row(lead_id, kind, buyer_id=bid.buyer_id, cents=bid.cents, exclusive=bid.exclusive,
                                  detail=detail, at_ms=bid.at_ms))
        if fixed_buyer_listed(self.settings, decision.partners) and not barred_reason(lead):
            enqueue_fixed_buyer(session=session, lead=lead, now=self.clock())
        elif self.settings.buyer_url:
            rows.append(_step_row(lead_id, StepKind.PASS, at_ms=_ms_since(lead),
                                  detail=fixed_buyer_skip(self.settings, lead)))
        _write_later(session, rows)
        # Its steps are the ones just written, and a lead just decided has no posts yet.
        self._advance(session, lead, auction, steps=[_StepRead(**{k: row[k] for k in _StepRead._fields})
                                                     for row in rows if row["kind"] == StepKind.BID], posts=[],
                      purse=purse)

    # -- after a post ---------------------------------------------------------------------------

    def settle(self, delivery_ids: list[str]) -> None:
        """Hand the answers of finished buyer posts to the decider thread, which settles them after
        the decisions queued before them; the stage counts as busy until it has."""
        future = self._decisions.settle(delivery_ids)
        with self._lock:
            self._settling.add(future)
        future.add_done_callback(self._settled)

    def settle_now(self, delivery_ids: list[str]) -> None:
        """Take the answers of finished buyer posts: record sales, pass refused leads on. The leads
        of one batch of answers are settled in one transaction (which finds them from the posts);
        should that fail, one at a time, so one bad lead holds up no other."""
        try:
            self._decide_and_settle([], list(delivery_ids))
            return
        except Exception:
            with self.session_factory() as session:
                lead_ids = sorted(set(session.scalars(_LEADS_OF_POSTS, {"ids": list(delivery_ids)})))
            if len(lead_ids) <= 1:
                # Its auction stays open; the sweep settles it again later.
                log.exception("settling lead %s failed", lead_ids[0] if lead_ids else "of these posts")
                return
            log.exception("settling %d leads together failed; settling them one at a time", len(lead_ids))
        for lead_id in lead_ids:
            try:
                self.settle_lead(lead_id)
            except Exception:
                # Its auction stays open; the sweep settles it again later.
                log.exception("settling lead %s failed", lead_id)

    def settle_lead(self, lead_id: str) -> None:
        self.settle_leads([lead_id])

    def settle_leads(self, lead_ids: list[str]) -> None:
        self._decide_and_settle([], [], lead_ids=lead_ids)

    def sweep(self, *, force: bool = False) -> None:
        """Settle auctions left open by a worker that stopped between a post's answer and its settling."""
        if not force and time.monotonic() - self._last_sweep < STUCK_AFTER.total_seconds() / 3:
            return
        self._last_sweep = time.monotonic()
        before = self.clock() - (timedelta(0) if force else STUCK_AFTER)
        with self.session_factory() as session:
            open_ids = list(session.scalars(select(Auction.lead_id).where(
                Auction.closed_at.is_(None), Auction.created_at < before).limit(200)))
        for lead_id in open_ids:
            try:
                self.settle_lead(lead_id)
            except Exception:
                log.exception("settling lead %s failed", lead_id)

    def _advance(self, session: Session, lead: Lead, auction: Auction | None = None, *,
                 steps: list | None = None, posts: list[Delivery] | None = None, purse: Purse) -> Next:
        """Record the posts' answers not yet recorded (a sale is charged to its buyer), then take the
        next step of the auction, posting only to buyers that can pay. `steps` (bids, answers, and
        bids passed on for money) and `posts`: as read by the caller for a batch; `purse`: the
        batch's (closed by the caller)."""
        auction = auction or session.get(Auction, lead.id)
        if steps is None or posts is None:
            steps, posts = _steps_and_posts(session, [lead.id])
            steps, posts = steps.get(lead.id, []), posts.get(lead.id, [])
        # A bid found unpaid when its turn came is not posted again.
        passed_on = {step.buyer_id for step in steps if step.kind == StepKind.PASS}
        offers = [Offer(step.buyer_id, step.amount_cents, bool(step.exclusive))
                  for step in steps if step.kind == StepKind.BID and step.buyer_id and step.buyer_id not in passed_on]
        price = {offer.buyer_id: offer for offer in offers}
        recorded = {step.detail for step in steps if step.kind in (StepKind.ACCEPTED, StepKind.REFUSED)}
        at = _ms_since(lead)
        new_steps: list[dict] = []
        unsold = [post for post in posts if post.status not in (DeliveryStatus.PENDING, DeliveryStatus.DELIVERED)]
        # Buyers that saw the details and did not buy: they keep a company's seat (at most three).
        answers = post_answers(session=session, delivery_ids=[post.id for post in unsold])
        held = sum(answers[post.id] is not None for post in unsold)
        for post in posts:
            if post.status == DeliveryStatus.PENDING or post.id in recorded:
                continue
            offer = price.get(post.buyer_id)
            if post.status == DeliveryStatus.DELIVERED and offer is not None:
                sale = Sale(id=new_id(), lead_id=lead.id, buyer_id=post.buyer_id, price_cents=offer.cents,
                            exclusive=offer.exclusive, created_at=self.clock())
                session.add(sale)
                # Its charge, in this transaction: the sale and its entry commit together or not at all.
                purse.charge(sale, lead, charge_description(self.settings, lead))
                # Once per day of leads in a transaction: several sales of one day reopen it once.
                day, reopened = as_utc(lead.created_at).date(), session.info.setdefault(_DAYS_REOPENED, set())
                if self.on_sale is not None and day not in reopened:
                    reopened.add(day)
                    self.on_sale(session, lead)
                new_steps.append(_step_row(lead.id, StepKind.ACCEPTED, buyer_id=post.buyer_id, cents=offer.cents,
                                           exclusive=offer.exclusive, detail=post.id, at_ms=at))
            else:
                # A post given up in doubt (FAILED) is recorded as refused too: it is no sale.
                new_steps.append(_step_row(lead.id, StepKind.REFUSED, buyer_id=post.buyer_id, detail=post.id,
                                           at_ms=at, exclusive=offer.exclusive if offer else None))
                # It got the full lead and did not buy it (a refusal, or no definite answer): told
                # to discard it, in this transaction.
                enqueue_discard(session=session, post=post, now=self.clock(), reason=answers[post.id])
        providers_routed = None
        if auction.providers_routed:
            # Providers sent the lead or holding an open or accepted offer; a declined one's seat is free.
            providers_routed = len(providers_holding_seats(session, lead.id))
        fixed = 1 if (self.settings.buyer_url and not (lead.do_not_sell or lead.is_duplicate or barred_reason(lead))
                      and fixed_buyer_listed(self.settings, lead_partners(session, lead))) else 0
        while True:
            step = next_step(
                offers=offers, mode=auction.mode, tried={post.buyer_id for post in posts},
                pending=sum(post.status == DeliveryStatus.PENDING for post in posts),
                accepted=sum(post.status == DeliveryStatus.DELIVERED for post in posts), held=held,
                in_doubt=any(post.status == DeliveryStatus.FAILED for post in posts),
                fixed_seats=fixed, providers_routed=providers_routed)
            # Its turn came and it cannot pay now (it spent meanwhile): a pass, and the choice again.
            unpaid = {offer.buyer_id: refusal for offer in step.post_to
                      if (refusal := purse.refusal(offer.buyer_id, offer.cents))}
            if not unpaid:
                break
            for offer in step.post_to:
                if offer.buyer_id in unpaid:
                    purse.refused(offer.buyer_id, unpaid[offer.buyer_id])
                    new_steps.append(_step_row(lead.id, StepKind.PASS, buyer_id=offer.buyer_id, cents=offer.cents,
                                               exclusive=offer.exclusive, detail=unpaid[offer.buyer_id], at_ms=at))
            offers = [offer for offer in offers if offer.buyer_id not in unpaid]
        now = self.clock()
        if step.mode and auction.mode != step.mode and (step.post_to or auction.mode is None):
            auction.mode = step.mode
            new_steps.append(_step_row(lead.id, StepKind.OUTCOME, exclusive=step.mode == "exclusive", at_ms=at,
                                       cents=sum(offer.cents for offer in step.post_to),
                                       detail=f"{step.mode}: " + (", ".join(o.buyer_id for o in step.post_to)
                                                                  or "no buyer")))
        for offer in step.post_to:
            purse.posted(offer.buyer_id, offer.cents)
            new_steps.append(_step_row(lead.id, StepKind.POST, buyer_id=offer.buyer_id, cents=offer.cents,
                                       exclusive=offer.exclusive, at_ms=at))
            enqueue_buyer_post(session=session, lead=lead, buyer_id=offer.buyer_id, now=now)
        if not auction.providers_routed and (step.mode == "shared" or step.close):
            auction.providers_routed = True
            # A duplicate already reached its providers the first time it came in.
            providers = [] if lead.is_duplicate or barred_reason(lead) or not step.provider_seats else match_providers(
                session=session, vertical=lead.vertical, service=lead.service, state=lead.state,
                zip_code=lead.zip, now=now, limit=step.provider_seats, lead=lead)
            # Every seat free means no buyer holds the lead: a provider may have it alone.
            route_matched(session=session, lead=lead, providers=providers, settings=self.settings, now=now,
                          exclusive_allowed=step.provider_seats == MAX_COMPANIES)
        if step.close:
            auction.closed_at = now
            new_steps.append(_step_row(lead.id, StepKind.CLOSED, at_ms=at))
        _write_later(session, new_steps)
        if step.close:
            enqueue_receipt(session=session, lead=lead)
        wakeup.notify_after_commit(session)
        return step

@dataclass
class _Settling:
    """Open auctions of a batch, locked, with their leads, steps and posts."""

    auctions: list[Auction] = field(default_factory=list)
    leads: dict[str, Lead] = field(default_factory=dict)
    steps: dict[str, list] = field(default_factory=dict)
    posts: dict[str, list[Delivery]] = field(default_factory=dict)

    def bidders(self) -> set[str]:
        return {step.buyer_id for found in self.steps.values() for step in found
                if step.kind == StepKind.BID and step.buyer_id}


def _read_settling(session: Session, lead_ids: list[str]) -> _Settling:
    # In id order, so workers side by side on PostgreSQL lock the same rows in the same order.
    auctions = list(session.scalars(_open_auctions(session.bind.dialect.name), {"ids": lead_ids}))
    if not auctions:
        return _Settling()
    ids = [auction.lead_id for auction in auctions]
    leads = {lead.id: lead for lead in session.scalars(_leads_with_consent(), {"ids": ids})}
    steps, posts = _steps_and_posts(session, ids)
    return _Settling(auctions, leads, steps, posts)


@dataclass
class _Deciding:
    """A batch's decisions whose events this worker still holds, with their leads and withdrawals."""

    mine: list[_Decision] = field(default_factory=list)
    leads: dict[str, Lead] = field(default_factory=dict)
    withdrawn: dict[str, str] = field(default_factory=dict)

    def bidders(self) -> set[str]:
        return {bid.buyer_id for decision in self.mine for bid in decision.bids if bid.cents is not None}


def _read_deciding(session: Session, decisions: list[_Decision], now: datetime) -> _Deciding:
    # An event another worker took over (this one was too slow) is not marked, and its lead is not
    # decided here.
    done = set(session.execute(_EVENTS_DONE, {
        "ids": [d.event_id for d in decisions], "tokens": sorted({d.token for d in decisions}),
        "now": now}).scalars())
    mine = [d for d in decisions if d.event_id in done]
    if not mine:
        return _Deciding()
    lead_ids = [d.lead_id for d in mine]
    leads = {lead.id: lead for lead in session.scalars(_leads_with_consent(), {"ids": lead_ids})}
    return _Deciding(mine, leads, withdrawal_reasons(session, lead_ids))


def _write_later(session: Session, rows: list[dict]) -> None:
    """Keep steps for one multi-row insert of the whole batch, past the unit of work, before its
    commit (_write_steps): a lead has a ping and a bid per buyer, and a batch up to DECISIONS_AT_ONCE
    leads. Nothing in the batch reads steps back after its first read of them."""
    session.info.setdefault(_STEPS_TO_WRITE, []).extend(rows)


def _write_steps(session: Session) -> None:
    if rows := session.info.pop(_STEPS_TO_WRITE, None):
        connection = session.connection()
        if connection.dialect.name == "postgresql":
            # One statement and one JSON text for the batch's hundreds of steps (a ping and a bid a
            # buyer a lead): psycopg's executemany costs Python work for every row (db/arrays.py).
            connection.execute(_INSERT_STEPS_AT_ONCE, as_json(rows))
        else:  # SQLite's executemany loops in C; a JSON text would cost this process more to read
            connection.execute(_INSERT_STEPS, rows)


class _StepRead(NamedTuple):
    """What a decision reads of a recorded step."""

    kind: str
    buyer_id: str | None
    amount_cents: int | None
    exclusive: bool | None
    detail: str | None


# The statements every round of auctions and every batch of decisions or settlements runs, built once:
# building them (and their cache keys) cost the worker more than running them.
_EVENTS = LeadEvent.__table__
_CLAIM_EVENTS = (update(_EVENTS).where(_EVENTS.c.id.in_(bindparam("ids", expanding=True)))
                 .values(claimed_until=bindparam("lease", type_=_EVENTS.c.claimed_until.type),
                         claim_token=bindparam("token", type_=_EVENTS.c.claim_token.type),
                         attempts=_EVENTS.c.attempts + 1))
_EVENTS_DONE = (update(_EVENTS)
                .where(_EVENTS.c.id.in_(bindparam("ids", expanding=True)),
                       _EVENTS.c.claim_token.in_(bindparam("tokens", expanding=True)), _EVENTS.c.done_at.is_(None))
                .values(done_at=bindparam("now", type_=_EVENTS.c.done_at.type), claimed_until=None)
                .returning(_EVENTS.c.id))
_LEADS_OF_POSTS = select(Delivery.lead_id).where(
    Delivery.id.in_(bindparam("ids", expanding=True)), Delivery.kind == TargetKind.BUYER_POST,
    Delivery.payload_kind == "lead")
_STEPS = AuctionStep.__table__
_INSERT_STEPS = insert(_STEPS)
# Every column of a step, as _step_row writes it (the table's own types: a foreign key's is only
# known once the tables are joined up).
_STEP_COLUMNS = (("id", String), ("lead_id", String), ("buyer_id", String), ("kind", String),
                 ("amount_cents", Integer), ("exclusive", Boolean), ("detail", Text), ("at_ms", Integer),
                 ("created_at", DateTime(timezone=True)))
_INSERT_STEPS_AT_ONCE = insert(_STEPS).from_select([name for name, _ in _STEP_COLUMNS],
                                                   select(*json_recordset("steps", _STEP_COLUMNS).c))
_DECIDING_STEPS = (
    select(_STEPS.c.lead_id, *(_STEPS.c[name] for name in _StepRead._fields))
    .where(_STEPS.c.lead_id.in_(bindparam("lead_ids", expanding=True)),
           or_(_STEPS.c.kind.in_((StepKind.BID, StepKind.ACCEPTED, StepKind.REFUSED)),
               # A bid passed on because its buyer could not pay: it carries the bid.
               and_(_STEPS.c.kind == StepKind.PASS, _STEPS.c.amount_cents.is_not(None)))))
_POSTS_OF_LEADS = select(Delivery).where(
    Delivery.lead_id.in_(bindparam("lead_ids", expanding=True)), Delivery.payload_kind == "lead",
    Delivery.kind == TargetKind.BUYER_POST)


@functools.cache
def _leads_with_consent():
    # On first use: its loader option needs every model mapped.
    return select(Lead).where(Lead.id.in_(bindparam("ids", expanding=True))).options(joinedload(Lead.consent))


@functools.cache
def _claimable_events(dialect_name: str):
    query = (select(_EVENTS.c.id, _EVENTS.c.lead_id)
             .where(_EVENTS.c.done_at.is_(None),
                    or_(_EVENTS.c.claimed_until.is_(None),
                        _EVENTS.c.claimed_until < bindparam("now", type_=_EVENTS.c.claimed_until.type)))
             .order_by(_EVENTS.c.created_at).limit(bindparam("limit", type_=Integer())))
    if dialect_name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    return query


@functools.cache
def _open_auctions(dialect_name: str):
    query = (select(Auction).where(Auction.lead_id.in_(bindparam("ids", expanding=True)), Auction.closed_at.is_(None))
             .order_by(Auction.lead_id))
    if dialect_name == "postgresql":
        query = query.with_for_update()  # one settler per lead at a time
    return query


def _steps_and_posts(session: Session, lead_ids: list[str]) -> tuple[dict[str, list], dict[str, list[Delivery]]]:
    """The bids, recorded answers and bids passed on for money, and the posts (not the privacy
    notices that follow them to the same buyers), of several leads, one query each. Steps go straight to the connection and posts
    change in other transactions, so nothing this transaction holds needs flushing first (a batch
    holds many leads' objects)."""
    steps: dict[str, list] = {}
    posts: dict[str, list[Delivery]] = {}
    with session.no_autoflush:
        for row in session.connection().execute(_DECIDING_STEPS, {"lead_ids": list(lead_ids)}):
            steps.setdefault(row.lead_id, []).append(_StepRead(*row[1:]))
        for post in session.scalars(_POSTS_OF_LEADS, {"lead_ids": list(lead_ids)}):
            posts.setdefault(post.lead_id, []).append(post)
    return steps, posts


def route_pending(*, session_factory: sessionmaker[Session], settings: Settings) -> int:
    """Route every accepted lead waiting now, without sending anything; how many were routed."""
    stage = RoutingStage(session_factory=session_factory, settings=settings)
    routed = 0
    try:
        while started := stage.start_due():
            routed += started
            stage.wait()
    finally:
        stage.close()
    return routed


def _bid_outcome(bid: Bid) -> str:
    """A bid's outcome as the bids metric counts it."""
    if bid.cents is not None:
        return "bid"
    if not bid.pinged:
        return "not_pinged"
    return "timeout" if (bid.detail or "").startswith("no answer") else "pass"


def _within_budget(bid: Bid, buyer: Buyer, spent) -> Bid:
    if bid.cents is None or within_budget(buyer, spent, bid.cents):
        return bid
    return Bid(bid.buyer_id, None, bid.exclusive, bid.at_ms, bid.pinged, detail="over its monthly budget")


def _step_row(lead_id: str, kind: str, *, at_ms: int, buyer_id: str | None = None, cents: int | None = None,
              exclusive: bool | None = None, detail: str | None = None) -> dict:
    return {"id": new_id(), "lead_id": lead_id, "buyer_id": buyer_id, "kind": kind, "amount_cents": cents,
            "exclusive": exclusive, "detail": detail, "at_ms": at_ms, "created_at": utcnow()}


def _step(lead_id: str, kind: str, **values) -> AuctionStep:
    return AuctionStep(**_step_row(lead_id, kind, **values))
