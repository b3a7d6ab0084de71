"""The decider: what comes in together is committed together (outcomes and post answers in one
transaction), what fails together is taken apart until each lead stands alone, and under load it
gathers a moment's arrivals into one batch."""

from __future__ import annotations

import threading
import time

import pytest

from servicematch.routing import stage
from servicematch.routing.stage import _Decider, _Decision


def _decision(lead_id: str) -> _Decision:
    return _Decision(event_id=f"event-{lead_id}", lead_id=lead_id, token="t", bids=[], suppressed=False,
                     partners=frozenset())


def test_a_batch_that_fails_is_decided_one_lead_at_a_time():
    calls: list[list[str]] = []
    committed: list[str] = []
    release = threading.Event()

    def decide_together(decisions: list[_Decision]) -> None:
        release.wait(5)  # the decider waits here while every decision queues up
        ids = [decision.lead_id for decision in decisions]
        calls.append(ids)
        if "bad" in ids:
            raise RuntimeError("a bad lead")
        committed.extend(ids)

    decider = _Decider(decide_together)
    try:
        futures = {lead_id: decider.decide(_decision(lead_id)) for lead_id in ("a", "bad", "b", "c")}
        release.set()
        for lead_id in ("a", "b", "c"):
            assert futures[lead_id].result(5) is None
        with pytest.raises(RuntimeError, match="a bad lead"):
            futures["bad"].result(5)
    finally:
        decider.close()
    assert sorted(committed) == ["a", "b", "c"]
    assert any(len(ids) > 1 for ids in calls)  # they were tried together first


def test_a_new_decider_builds_its_look_ups_before_its_first_batch_and_survives_their_failure():
    """The ZIP index and the catalogue are built as the decider starts, while the first leads' pings
    are out, not inside the first sale's transaction; a failure to build them is logged, not fatal."""
    order: list[str] = []
    release = threading.Event()

    def warm_up() -> None:
        release.wait(5)
        order.append("warmed")
        raise OSError("the catalogue is missing")

    decider = _Decider(lambda decisions: order.extend(d.lead_id for d in decisions), warm_up=warm_up)
    try:
        decided = decider.decide(_decision("first"))
        release.set()
        assert decided.result(5) is None
    finally:
        decider.close()
    assert order == ["warmed", "first"]


def test_outcomes_and_answers_that_come_together_commit_together_and_are_taken_apart_if_that_fails():
    transactions: list[tuple[str, list[str]]] = []
    entered, release = threading.Event(), threading.Event()
    fail_together = threading.Event()

    def decide_together(decisions: list[_Decision]) -> None:
        entered.set()
        release.wait(5)  # the first decision's batch: everything else queues up meanwhile
        transactions.append(("decide", [decision.lead_id for decision in decisions]))

    def settle(delivery_ids: list[str]) -> None:
        transactions.append(("settle", list(delivery_ids)))

    def both(decisions: list[_Decision], delivery_ids: list[str]) -> None:
        if fail_together.is_set():
            raise RuntimeError("the batch failed")
        transactions.append(("both", [decision.lead_id for decision in decisions] + list(delivery_ids)))

    decider = _Decider(decide_together, settle, both=both)
    try:
        first = decider.decide(_decision("first"))
        assert entered.wait(5)
        queued = [decider.decide(_decision("a")), decider.settle(["post-1"]), decider.settle(["post-2"])]
        release.set()
        for future in [first, *queued]:
            assert future.result(5) is None
        assert transactions == [("decide", ["first"]), ("both", ["a", "post-1", "post-2"])]

        transactions.clear()
        entered.clear()
        release.clear()
        fail_together.set()
        blocker = decider.decide(_decision("blocker"))
        assert entered.wait(5)
        queued = [decider.decide(_decision("b")), decider.settle(["post-3"])]
        release.set()
        for future in [blocker, *queued]:
            assert future.result(5) is None
        # Taken apart: the outcomes in one transaction, the answers in another.
        assert transactions == [("decide", ["blocker"]), ("decide", ["b"]), ("settle", ["post-3"])]
    finally:
        decider.close()


def test_while_other_auctions_are_pinging_the_decider_gathers_what_comes_meanwhile(monkeypatch):
    monkeypatch.setattr(stage, "GATHER_SECONDS", 1.0)  # far longer than the arrival below takes
    batches: list[list[str]] = []
    decider: _Decider

    def more_coming() -> bool:
        # Another auction's bids arrive while the decider waits for them.
        threading.Timer(0.05, lambda: decider.decide(_decision("second"))).start()
        return True

    decider = _Decider(lambda decisions: batches.append([d.lead_id for d in decisions]), more_coming=more_coming)
    try:
        decider.decide(_decision("first")).result(5)
    finally:
        decider.close()
    assert batches[0] == ["first", "second"]


def test_a_quiet_decider_commits_at_once(monkeypatch):
    monkeypatch.setattr(stage, "GATHER_SECONDS", 30.0)
    decider = _Decider(lambda decisions: None, more_coming=lambda: False)
    try:
        started = time.monotonic()
        decider.decide(_decision("alone")).result(10)
        assert time.monotonic() - started < 10  # it never waited for the 30 s a gathering takes
    finally:
        decider.close()
