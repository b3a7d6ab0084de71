"""The worker `serve` starts (routing and delivery): a child process of the web process, woken
through a pipe.

A worker inside the web process shares its interpreter lock with intake, so on a busy server each
slows the other. In a process of its own the worker has its own lock (and, given a second core,
its own core), and intake answers as fast as it would alone.

The web process writes a byte into the pipe whenever it commits new deliveries (coalesced: one
byte stands for every commit since the worker last read). Through a second pipe the child writes
one back whenever it commits a change to providers' offers, so an open portal's event stream
(portal/router_events.py) looks at once instead of at its next poll. The first pipe is also how
the child knows its parent is there: when the web process stops, or dies, the child reads end-of-file, finishes the sends under
way, records them, and exits. A child that dies is started again.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import threading
from multiprocessing.connection import Connection

from servicematch.kernel import wakeup
from servicematch.settings import Settings

log = logging.getLogger("servicematch.delivery")

# How often the parent looks whether its worker is still alive, when nothing wakes it sooner.
WATCH_SECONDS = 1.0
WAKE = b"w"
OFFERS_CHANGED = b"o"


class _OffersForwarder:
    """The child's side of offer changes: the committing thread only sets an event, and a thread
    of its own writes the byte, so a parent slow to read never holds up a commit."""

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._changed = threading.Event()
        self._thread = threading.Thread(target=self._forward, name="offers-to-parent", daemon=True)

    def start(self) -> None:
        wakeup.offers.subscribe(self._changed.set)
        self._thread.start()

    def _forward(self) -> None:
        while True:
            self._changed.wait()
            self._changed.clear()
            try:
                self._connection.send_bytes(OFFERS_CHANGED)
            except (OSError, ValueError):
                return  # the pipe is closed: the child is stopping


def _hear_child(connection: Connection) -> None:
    """The parent's side: each byte the child writes is a change to offers, told in this process."""
    try:
        while True:
            if connection.recv_bytes() == OFFERS_CHANGED:
                wakeup.offers.notify()
    except (EOFError, OSError, ValueError):
        pass  # the child exited
    finally:
        connection.close()


def run_child(settings: Settings, connection: Connection, to_parent: Connection | None = None) -> None:
    """The child: a delivery worker that sends until its parent closes the pipe."""
    from servicematch.db.session import make_engine, make_session_factory
    from servicematch.delivery.worker import BackgroundWorker
    from servicematch.kernel.heap import tune_for_serving
    from servicematch.kernel.logs import configure_logging
    from servicematch.kernel.metrics import share_metrics_in
    from servicematch.ops.sentry import start_sentry
    from servicematch.workers import make_worker

    # A fresh interpreter (spawned): its lines in the web process's format, its errors to Sentry.
    configure_logging(settings.log_format)
    start_sentry(settings)
    # Counted into the deployment's shared metric files, as this process's own.
    share_metrics_in(settings.metrics_dir, process_kind="worker")
    # Ctrl-C reaches the whole process group; the parent decides when its worker stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    engine = make_engine(settings.database_url)
    background = BackgroundWorker(make_worker(session_factory=make_session_factory(engine), settings=settings))
    tune_for_serving()
    signal.signal(signal.SIGTERM, lambda *_: connection.close())
    if to_parent is not None:
        _OffersForwarder(to_parent).start()
    background.start()
    try:
        while True:
            connection.recv_bytes()
            wakeup.notify()
    except (EOFError, OSError):
        pass  # the parent stopped, died, or sent SIGTERM
    finally:
        background.stop()
        engine.dispose()


class WorkerProcess:
    """The parent's side: starts the child, forwards wake-ups, restarts it if it dies, stops it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        # A fresh interpreter: forking a web process would copy its threads' locks mid-use.
        self._context = multiprocessing.get_context("spawn")
        self._process: multiprocessing.process.BaseProcess | None = None
        self._connection: Connection | None = None
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._watcher = threading.Thread(target=self._watch, name="delivery-worker-watch", daemon=True)

    def start(self) -> None:
        self._spawn()
        wakeup.subscribe(self._wake)
        self._watcher.start()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def stop(self, timeout: float | None = None) -> None:
        """Close the pipe (the child finishes its sends and exits); past `timeout`, terminate it."""
        self._stopping.set()
        wakeup.unsubscribe(self._wake)
        self._wake.set()
        self._watcher.join()
        self._close_pipe()
        if self._process is not None:
            self._process.join(timeout)
            if self._process.is_alive():
                log.error("delivery worker %s did not stop in time; terminating it", self._process.pid)
                self._process.terminate()
                self._process.join(5)

    def _spawn(self) -> None:
        # Two one-way pipes: closing ours to the child is all it takes to tell it to stop, whatever
        # the thread that listens to the child is doing meanwhile.
        reader, writer = self._context.Pipe(duplex=False)
        from_child, child_writer = self._context.Pipe(duplex=False)
        process = self._context.Process(target=run_child, args=(self.settings, reader, child_writer),
                                        name="delivery-worker", daemon=False)
        process.start()
        # Only the child holds these ends: its end-of-file means the parent is gone, and ours means
        # the child is gone.
        reader.close()
        child_writer.close()
        self._process, self._connection = process, writer
        threading.Thread(target=_hear_child, args=(from_child,), name="delivery-worker-hear",
                         daemon=True).start()

    def _watch(self) -> None:
        while not self._stopping.is_set():
            woken = self._wake.wait(WATCH_SECONDS)
            self._wake.clear()
            if self._stopping.is_set():
                return
            if not self._process.is_alive():
                log.error("delivery worker %s exited with %s; starting another", self._process.pid,
                          self._process.exitcode)
                self._close_pipe()
                self._spawn()
                woken = True  # whatever was committed meanwhile is due now
            if woken:
                try:
                    self._connection.send_bytes(WAKE)
                except OSError:
                    pass  # the child is gone; the next look starts another

    def _close_pipe(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def built_in_worker(settings: Settings) -> WorkerProcess | None:
    """The worker `serve` runs beside the web process, in a child process, or None when settings
    turn it off."""
    if not settings.worker_enabled:
        return None
    return WorkerProcess(settings)
