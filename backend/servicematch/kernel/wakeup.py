"""Wake whoever waits on a kind of change the moment the transaction that made it commits, instead
of at their next poll.

Two kinds: new deliveries (the workers of this process send them) and providers' offers (an open
portal's event stream tells its page). The worker is a child process of the web process
(worker_process.py): pipes between them carry both kinds across.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from sqlalchemy import event
from sqlalchemy.orm import Session

Listener = Callable[[], None]
log = logging.getLogger("servicematch")


class Signal:
    """Listeners called after a commit that made this kind of change; each must return at once
    (set an event, schedule a task): they run on the committing thread."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._listeners: set[Listener] = set()
        self._lock = threading.Lock()

    def subscribe(self, listener: Listener) -> Listener:
        with self._lock:
            self._listeners.add(listener)
        return listener

    def unsubscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.discard(listener)

    def notify(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener()
            except Exception:
                # A listener's fault is its own: the commit that notified stands, the others hear.
                log.exception("a %s listener failed", self.name)

    def after_commit(self, session: Session) -> None:
        """Notify once `session` commits: a listener woken earlier would not see the rows yet.

        The hook stays on the session for its later commits too (a spare wake-up costs a look),
        so a long-lived session, such as intake's batch writer's, registers it once, not per lead."""
        if not event.contains(session, "after_commit", self._on_commit):
            event.listen(session, "after_commit", self._on_commit)

    def _on_commit(self, _session: Session) -> None:
        self.notify()


deliveries = Signal("deliveries")
offers = Signal("offers")


def subscribe(wake: threading.Event | None = None) -> threading.Event:
    """An event (`wake`, or a new one) set whenever new deliveries are committed in this process."""
    wake = wake or threading.Event()
    deliveries.subscribe(wake.set)
    return wake


def unsubscribe(wake: threading.Event) -> None:
    deliveries.unsubscribe(wake.set)


def notify() -> None:
    """Wake every worker of this process."""
    deliveries.notify()


def notify_after_commit(session: Session) -> None:
    """Wake workers once `session` commits: a worker woken earlier would not see the rows yet."""
    deliveries.after_commit(session)
