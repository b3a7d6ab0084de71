"""Pings on one event loop: every lead's pings in flight at once, with no thread per ping.

A worker pings every qualifying buyer of every lead it routes: 20 buyers at 50 leads a second is
a thousand requests a second, nearly all of their time spent waiting for answers. A thread per
request cost more in hand-offs of the interpreter lock than the requests themselves. Here one
thread runs an event loop (uvloop where installed) that sends them and parses the answers with
httptools, the parser uvicorn serves with. The guard rails are the thread client's (http_sender.py):
no proxy, no redirect followed, the address checked where the connection is made and never looked
up twice, one deadline for the whole exchange, the answer read up to RESPONSE_BODY_LIMIT bytes,
connections kept alive per receiver.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections import defaultdict, deque
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from urllib.parse import urlsplit

import httptools

from servicematch.outbound.guarded_network import (
    PrivateAddressRefused,
    public_address,
    tls_context,
)
from servicematch.outbound.http_sender import KEEP_ALIVE_SECONDS, url_problem
from servicematch.outbound.outcome import (
    RESPONSE_BODY_LIMIT,
    Outcome,
    SendResult,
    classify_http_status,
)

try:
    import uvloop
except ImportError:  # pragma: no cover (uvicorn[standard] brings it wherever it builds)
    uvloop = None

# What http.client refuses in a request target or a header: a control character or a space would
# let a stored URL or value write a header or a second request of its own.
_UNSAFE = re.compile(r"[\x00-\x20\x7f]")
_UNSAFE_VALUE = re.compile(r"[\r\n\x00]")
READ_SIZE = 65536
# Idle connections kept per receiver (host and port). Every auction under way pings each buyer
# once, all at once, so a host serving many buyers' ping URLs (a lead platform's campaigns) has
# up to auctions x buyers pings in flight: 32 auctions x 20 buyers is 640. Fewer kept would close
# and reopen connections under load; the file-descriptor cost of an idle socket is small.
IDLE_PER_RECEIVER = 256
# A deadline whose timer ran this much late found the loop held up (the worker busy): an answer
# may have come in time and waited to be read, so the miss is the worker's, never the receiver's.
LATE_LOOP_SECONDS = 0.05
# While requests are under way the loop notes, this often, that it is running; a gap between two
# notes longer than the interval by LATE_LOOP_SECONDS is a stall (the loop's thread kept from running).
# A request whose deadline passed is the receiver's only if the loop did not stall in its window: an
# answer that came during a stall ending just as the deadline fell due is lost to the deadline, and
# the deadline's own timer need not run late for that.
TICK_SECONDS = 0.02
STALLS_KEPT = 64
WORKER_TOO_BUSY = "not read in time: this worker was too busy (our delay, not the receiver's)"


@dataclass(frozen=True)
class LoopRequest:
    """One signed POST: its URL, the exact body, its headers and the seconds it may take in all."""

    url: str
    body: bytes
    headers: dict[str, str]
    timeout: float


class ReceiverProtocolError(Exception):
    """The receiver answered with something that is not HTTP/1.1."""


class _ClosedBeforeAnswer(ConnectionError):
    """The connection closed before a byte of the answer came (a kept one the receiver dropped)."""


class _Answer:
    """httptools' callbacks: the final answer's status, Location and body up to the limit (an
    interim 1xx answer is passed over)."""

    __slots__ = ("body", "complete", "cut_off", "delimited", "headers_done", "keep_alive", "location", "parser",
                 "status")

    def __init__(self) -> None:
        self.parser: httptools.HttpResponseParser | None = None
        self.status = 0
        self.location: str | None = None
        self.body = b""
        self.headers_done = self.complete = self.delimited = self.keep_alive = False
        self.cut_off: str | None = None  # why the answer was not read to its end, if it was not

    def on_header(self, name: bytes, value: bytes) -> None:
        name = name.lower()
        if name == b"location":
            self.location = value.decode("latin-1")
        elif name in (b"content-length", b"transfer-encoding"):
            self.delimited = True  # its end is marked, so a close before it cuts the answer short

    def on_headers_complete(self) -> None:
        self.status = self.parser.get_status_code()
        # Asked here: once the message is complete, httptools no longer says.
        self.keep_alive = self.parser.should_keep_alive()
        self.headers_done = True

    def on_body(self, chunk: bytes) -> None:
        room = RESPONSE_BODY_LIMIT - len(self.body)
        if len(chunk) > room:
            self.cut_off = "answer cut off at the size limit"
        self.body += chunk[:room]

    def on_message_complete(self) -> None:
        if self.status < 200:
            self.location, self.body, self.headers_done, self.delimited = None, b"", False, False
            return
        self.complete = True


class _Connection:
    __slots__ = ("idle_since", "reader", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer, self.idle_since = reader, writer, time.monotonic()

    def usable(self) -> bool:
        """Open, not idle too long, and not closed by the receiver meanwhile."""
        return (not self.writer.is_closing() and not self.reader.at_eof()
                and time.monotonic() - self.idle_since <= KEEP_ALIVE_SECONDS)

    def close(self) -> None:
        self.writer.close()


class LoopSender:
    """One event loop thread that sends requests handed to it from any thread."""

    def __init__(self, *, allow_private: bool, name: str = "outbound-loop") -> None:
        self.allow_private = allow_private
        self._tls = tls_context()
        self._idle: defaultdict[tuple, list[_Connection]] = defaultdict(list)
        self._loop = uvloop.new_event_loop() if uvloop is not None else asyncio.new_event_loop()
        self._tasks: set[asyncio.Task] = set()
        # (from, to) in loop time of the recent stalls, and when the loop last noted it was running.
        self._stalls: deque[tuple[float, float]] = deque(maxlen=STALLS_KEPT)
        self._ticked: float | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, name=name, daemon=True)
        self._thread.start()

    def send_all(self, requests: Sequence[LoopRequest]) -> list[Future]:
        """Start every request at once (one hand-off to the loop); a future of a SendResult each.
        A future cancelled before its request starts is never sent."""
        futures: list[Future] = [Future() for _ in requests]
        if requests:
            self._loop.call_soon_threadsafe(self._start, list(zip(requests, futures)))
        return futures

    def close(self) -> None:
        """Stop the requests under way, close the kept connections and end the thread."""
        if self._loop.is_closed():
            return
        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        self._loop.close()

    # -- on the loop ---------------------------------------------------------------------------

    def _tick(self) -> None:
        """Note that the loop runs, and any stall since the last note; again while requests are under way."""
        now = self._loop.time()
        if self._ticked is not None and now - self._ticked > TICK_SECONDS + LATE_LOOP_SECONDS:
            self._stalls.append((self._ticked, now))
        if self._tasks:
            self._ticked = now
            self._loop.call_later(TICK_SECONDS, self._tick)
        else:
            self._ticked = None

    def _stalled_between(self, start: float, end: float) -> bool:
        """Whether the loop stalled at some time from `start` to `end` (loop time), or is stalled now."""
        if self._ticked is not None and end - self._ticked > TICK_SECONDS + LATE_LOOP_SECONDS:
            return True
        return any(stall_end > start and stall_start < end for stall_start, stall_end in self._stalls)

    def _start(self, work: list[tuple[LoopRequest, Future]]) -> None:
        if self._ticked is None:
            self._ticked = self._loop.time()
            self._loop.call_later(TICK_SECONDS, self._tick)
        for request, future in work:
            if not future.set_running_or_notify_cancel():
                continue
            task = self._loop.create_task(self._send(request))
            self._tasks.add(task)
            task.add_done_callback(lambda done, future=future: self._finish(done, future))

    def _finish(self, task: asyncio.Task, future: Future) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            future.set_result(_result(Outcome.RETRY, "", 0, error="not sent: the worker is stopping", sent=False))
        elif (exc := task.exception()) is not None:
            future.set_exception(exc)
        else:
            future.set_result(task.result())

    async def _shutdown(self) -> None:
        under_way = list(self._tasks)
        for task in under_way:
            task.cancel()
        await asyncio.gather(*under_way, return_exceptions=True)
        for connections in self._idle.values():
            for connection in connections:
                connection.close()
        self._idle.clear()

    async def _send(self, request: LoopRequest) -> SendResult:
        """Send once within the request's timeout; never raises for network trouble."""
        url = request.url
        if problem := url_problem(url, allow_private=self.allow_private):
            return _result(Outcome.REJECTED, url, 0, error=problem, sent=False)
        started = time.perf_counter()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + request.timeout
        try:
            parts = urlsplit(url)
            https = parts.scheme == "https"
            key = (https, parts.hostname, parts.port or (443 if https else 80))
            message = _request_bytes(parts, key, request.body, request.headers)
            async with asyncio.timeout_at(deadline):
                answer = await self._exchange(key, message)
        except PrivateAddressRefused as exc:
            return _result(Outcome.REJECTED, url, _elapsed_ms(started), error=str(exc)[:500], sent=False)
        except TimeoutError:
            now = loop.time()
            ours = now - deadline > LATE_LOOP_SECONDS or self._stalled_between(deadline - request.timeout, now)
            return _result(Outcome.RETRY, url, _elapsed_ms(started),
                           error=WORKER_TOO_BUSY if ours else "TimeoutError: the attempt's deadline passed")
        except (OSError, ValueError, ReceiverProtocolError) as exc:
            # ValueError: a port out of range in a stored URL, caught like an unreachable host.
            return _result(Outcome.RETRY, url, _elapsed_ms(started), error=f"{type(exc).__name__}: {exc}"[:500])
        error = answer.cut_off
        if 300 <= answer.status < 400:
            error = (f"HTTP {answer.status} redirect to {answer.location or '(no Location)'}: redirects are not "
                     "followed; update the receiver's URL")
        return SendResult(outcome=classify_http_status(answer.status), target=url, duration_ms=_elapsed_ms(started),
                          status_code=answer.status, response_body=answer.body.decode("utf-8", errors="replace"),
                          error=error)

    async def _exchange(self, key: tuple, message: bytes) -> _Answer:
        connection, reused = self._take(key)
        if connection is None:
            connection = await self._connect(key)
        try:
            try:
                answer = await _ask(connection, message)
            except _ClosedBeforeAnswer:
                if not reused:
                    raise
                # A kept connection the receiver closed just as it was taken: once more on a new one.
                connection.close()
                connection = await self._connect(key)
                answer = await _ask(connection, message)
        except BaseException:
            connection.close()
            raise
        if answer.complete and answer.cut_off is None and answer.keep_alive:
            self._give_back(key, connection)
        else:
            connection.close()
        return answer

    def _take(self, key: tuple) -> tuple[_Connection | None, bool]:
        kept = self._idle.get(key)
        while kept:
            connection = kept.pop()
            if connection.usable():
                return connection, True
            connection.close()
        return None, False

    async def _connect(self, key: tuple) -> _Connection:
        https, host, port = key
        # Private addresses allowed (development, tests): the name, each of its addresses tried in
        # turn, as the thread client connects. Otherwise the one public address checked.
        address = host if self.allow_private else await public_address(host, port)
        reader, writer = await asyncio.open_connection(
            address, port, ssl=self._tls if https else None, server_hostname=host if https else None,
            limit=READ_SIZE)
        return _Connection(reader, writer)

    def _give_back(self, key: tuple, connection: _Connection) -> None:
        kept = self._idle[key]
        if len(kept) >= IDLE_PER_RECEIVER:
            connection.close()
            return
        connection.idle_since = time.monotonic()
        kept.append(connection)


async def _ask(connection: _Connection, message: bytes) -> _Answer:
    """Write the request and read its answer (to its end, the size limit, or the connection's close)."""
    connection.writer.write(message)
    await connection.writer.drain()
    answer = _Answer()
    parser = answer.parser = httptools.HttpResponseParser(answer)
    received = False
    while not answer.complete and answer.cut_off is None:
        data = await connection.reader.read(READ_SIZE)
        if not data:
            if not received:
                raise _ClosedBeforeAnswer("the receiver closed the connection without answering")
            if not answer.headers_done:
                raise ReceiverProtocolError("the receiver closed the connection in the middle of its answer")
            # An answer without a length ends with its connection; one with a length was cut short,
            # but the receiver has answered, so its status decides, as in the thread client.
            if answer.delimited:
                answer.cut_off = "answer cut off: the receiver closed the connection"
            answer.complete = True
            break
        received = True
        try:
            parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            raise ReceiverProtocolError("the receiver switched protocols") from None
        except httptools.HttpParserError as exc:
            if not answer.complete:
                raise ReceiverProtocolError(f"not an HTTP answer: {exc}") from None
    return answer


def _request_bytes(parts, key: tuple, body: bytes, headers: dict[str, str]) -> bytes:
    https, host, port = key
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    if _UNSAFE.search(target):
        raise ValueError("the URL has a space or a control character in its path")
    host_header = f"[{host}]" if ":" in host else host
    if port != (443 if https else 80):
        host_header += f":{port}"
    lines = [f"POST {target} HTTP/1.1", f"Host: {host_header}", f"Content-Length: {len(body)}"]
    for name, value in headers.items():
        if _UNSAFE_VALUE.search(value) or _UNSAFE.search(name):
            raise ValueError(f"header {name!r} has a control character")
        lines.append(f"{name}: {value}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def _result(outcome: str, target: str, duration_ms: int, *, error: str, sent: bool = True) -> SendResult:
    return SendResult(outcome=outcome, target=target, duration_ms=duration_ms, error=error, sent=sent)


def _elapsed_ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
