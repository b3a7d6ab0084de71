"""Wake in-process workers the moment a lead's transaction commits, instead of at the next poll."""

from __future__ import annotations

import threading

from sqlalchemy import event
from sqlalchemy.orm import Session

_listeners: set[threading.Event] = set()
_lock = threading.Lock()


def subscribe(wake: threading.Event | None = None) -> threading.Event:
    """An event (`wake`, or a new one) set whenever new deliveries are committed in this process."""
    wake = wake or threading.Event()
    with _lock:
        _listeners.add(wake)
    return wake


def unsubscribe(wake: threading.Event) -> None:
    with _lock:
        _listeners.discard(wake)


def notify() -> None:
    """Wake every worker of this process."""
    with _lock:
        for wake in _listeners:
            wake.set()


def notify_after_commit(session: Session) -> None:
    """Wake workers once `session` commits: a worker woken earlier would not see the rows yet."""
    if not event.contains(session, "after_commit", _on_commit):
        event.listen(session, "after_commit", _on_commit)


def _on_commit(_session: Session) -> None:
    notify()
