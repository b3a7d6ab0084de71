"""Who else must react when a consumer withdraws consent or has their data erased.

Privacy imports nothing of the rooms above it; a composition root (servicematch.app,
servicematch.workers) registers their reactions here, such as routing withdrawing the lead's open
offers, and each runs in the transaction that records the withdrawal.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy.orm import Session

# (session, lead ids, now) -> None
Listener = Callable[[Session, list[str], datetime], None]
_listeners: list[Listener] = []


def on_consent_withdrawn(listener: Listener) -> None:
    """Call `listener` whenever leads are stopped or erased (registering it twice adds it once)."""
    if listener not in _listeners:
        _listeners.append(listener)


def consent_withdrawn_from(session: Session, lead_ids: list[str], now: datetime) -> None:
    for listener in _listeners:
        listener(session, lead_ids, now)


_erasure_listeners: list[Listener] = []


def on_data_erased(listener: Listener) -> None:
    """Call `listener` whenever leads' personal data is erased (after the consent-withdrawn ones),
    so rooms that keep something of the lead (routing's ledger lines) forget it too."""
    if listener not in _erasure_listeners:
        _erasure_listeners.append(listener)


def data_erased_from(session: Session, lead_ids: list[str], now: datetime) -> None:
    for listener in _erasure_listeners:
        listener(session, lead_ids, now)
