"""Each worker's heartbeat: one row per running worker (worker_heartbeats), written every few
seconds, which /api/ready reports and the metrics read.

A worker beats as one of its chores (servicematch.workers): every HEARTBEAT_SECONDS when the worker
pokes its chores, on a thread of its own. A clean stop deletes its row; a worker that died
leaves its row, growing older, until a live worker's beat removes rows not beaten for
FORGET_AFTER. The row names the worker, its host and process id: no personal data.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from datetime import datetime, timedelta

from sqlalchemy import Connection, DateTime, Integer, String, delete, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from servicematch.kernel.chores import HourlyChore
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.kernel.orm import Base

log = logging.getLogger("servicematch.ops.heartbeat")

HEARTBEAT_SECONDS = 5.0
# A row not beaten for this long belongs to a worker that died (a clean stop deletes its own).
FORGET_AFTER = timedelta(hours=1)


class WorkerHeartbeat(Base):
    """A running worker: who it is, where, since when, and when it last said so."""

    __tablename__ = "worker_heartbeats"

    worker_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    beat_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def beat(session_factory: sessionmaker[Session], *, worker_id: str, host: str, pid: int, started_at: datetime,
         now: datetime | None = None) -> None:
    """Write this worker's row (insert or update, one statement), and remove dead workers' rows."""
    now = now or utcnow()
    with session_factory() as session:
        insert = postgresql_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
        session.execute(
            insert(WorkerHeartbeat)
            .values(worker_id=worker_id, host=host[:255], pid=pid, started_at=started_at, beat_at=now)
            .on_conflict_do_update(index_elements=[WorkerHeartbeat.worker_id],
                                   set_={"host": host[:255], "pid": pid, "beat_at": now}))
        session.execute(delete(WorkerHeartbeat).where(WorkerHeartbeat.beat_at < now - FORGET_AFTER))
        session.commit()


def forget_worker(session_factory: sessionmaker[Session], worker_id: str) -> None:
    """Delete a worker's row: it stopped cleanly."""
    with session_factory() as session:
        session.execute(delete(WorkerHeartbeat).where(WorkerHeartbeat.worker_id == worker_id))
        session.commit()


def last_beats(connection: Session | Connection, now: datetime | None = None) -> list[tuple[str, float]]:
    """(worker id, seconds since its last beat) of every worker on record, the latest beat first."""
    now = now or utcnow()
    rows = connection.execute(select(WorkerHeartbeat.worker_id, WorkerHeartbeat.beat_at)
                           .order_by(WorkerHeartbeat.beat_at.desc(), WorkerHeartbeat.worker_id)).all()
    return [(worker_id, max(0.0, (now - as_utc(beat_at)).total_seconds())) for worker_id, beat_at in rows]


class HeartbeatChore(HourlyChore):
    """A worker's beat as one of its chores: poked with the others, it beats every
    HEARTBEAT_SECONDS; `stop` (when the worker closes) waits for a beat under way and deletes the row."""

    def __init__(self, session_factory: sessionmaker[Session], *, worker_id: str,
                 every_seconds: float = HEARTBEAT_SECONDS) -> None:
        # A beat says the worker's loop goes round, busy or not: poked on busy rounds too (a poke
        # is one clock reading), it beats on time while the worker sends.
        super().__init__("heartbeat", self._beat, every_seconds=every_seconds, while_busy=True)
        self.session_factory = session_factory
        self.worker_id = worker_id
        self.host = socket.gethostname()
        self.pid = os.getpid()
        self.started_at = utcnow()
        self._stopped = threading.Event()
        self._written = False
        self._failing = False

    def poke(self) -> None:
        if not self._stopped.is_set():
            super().poke()

    def stop(self, timeout: float = 10.0) -> None:
        """No more beats; the row, if one was written, is deleted. Never raises: a worker's stop
        must not fail for its heartbeat (a row left behind is forgotten after FORGET_AFTER)."""
        self._stopped.set()
        self.join(timeout)
        if not self._written:
            return
        try:
            forget_worker(self.session_factory, self.worker_id)
        except SQLAlchemyError as exc:
            log.warning("worker %s stopped but its heartbeat row stays until it is forgotten: %s",
                        self.worker_id, type(exc).__name__)

    def _beat(self) -> None:
        if self._stopped.is_set():
            return
        try:
            beat(self.session_factory, worker_id=self.worker_id, host=self.host, pid=self.pid,
                 started_at=self.started_at)
        except SQLAlchemyError as exc:
            # Once per outage: the worker's own rounds say more about a database that is away.
            if not self._failing:
                log.warning("worker %s could not write its heartbeat: %s", self.worker_id, type(exc).__name__)
            self._failing = True
            return
        if not self._written or self._failing:
            log.info("worker %s (pid %d on %s) beats every %.0f s", self.worker_id, self.pid, self.host,
                     self.CHECK_EVERY_SECONDS)
        self._written = True
        self._failing = False
