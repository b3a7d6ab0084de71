"""Who else must react when a consumer withdraws consent or has their data erased.

Privacy imports nothing of the rooms above it; a composition root (servicematch.app,
servicematch.workers) registers their reactions here, such as routing withdrawing the lead's open
offers (on a stop or an erasure) and taking the place off its ledger lines (on an erasure), and
each runs in the transaction that records the withdrawal or the erasure.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy.orm import Session

# (session, lead ids, now) -> None
Listener = Callable[[Session, list[str], datetime], None]


class LeadHook:
    """Listeners of one kind of event about leads, called in the order they registered."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def register(self, listener: Listener) -> None:
        """Call `listener` on every event (registering it twice adds it once)."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    def fire(self, session: Session, lead_ids: list[str], now: datetime) -> None:
        for listener in self._listeners:
            listener(session, lead_ids, now)


_withdrawn = LeadHook()  # leads stopped or erased
_erased = LeadHook()  # leads' personal data erased (fired after _withdrawn)

on_consent_withdrawn, consent_withdrawn_from = _withdrawn.register, _withdrawn.fire
on_data_erased, data_erased_from = _erased.register, _erased.fire
