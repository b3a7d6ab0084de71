"""The event-loop sender the pings go out on: what a receiver answers, byte for byte, is read as the
thread client reads it; connections are kept; private addresses, bad URLs and slow receivers are
handled with a clear error, never an exception."""

from __future__ import annotations

import socket
import socketserver
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from servicematch.outbound.loop_sender import WORKER_TOO_BUSY, LoopRequest, LoopSender
from servicematch.outbound.outcome import RESPONSE_BODY_LIMIT, Outcome
from servicematch.routing.pings import answer_of

Answer = Callable[[int], bytes | None]  # the request's number on its connection -> raw answer (None: hang up)


class RawReceiver:
    """A TCP server that reads each HTTP request and writes the answer it is given, as bytes."""

    def __init__(self, answer: Answer, *, delay: float = 0.0) -> None:
        self.answer, self.delay = answer, delay
        self.connections = 0
        self.requests: list[bytes] = []
        receiver = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                receiver.connections += 1
                stream = self.request.makefile("rb")
                for number in range(1000):
                    head = b""
                    while not head.endswith(b"\r\n\r\n"):
                        line = stream.readline()
                        if not line:
                            return
                        head += line
                    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                                   if line.lower().startswith(b"content-length:")), 0)
                    receiver.requests.append(head + stream.read(length))
                    time.sleep(receiver.delay)
                    raw = receiver.answer(number)
                    if raw is None:
                        return
                    self.request.sendall(raw)
                    if b"connection: close" in raw.lower():
                        return

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/ping?campaign=7"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def ok(body: bytes = b'{"bid": 12.5}', extra: bytes = b"") -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + extra + \
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body


@pytest.fixture
def receivers() -> Iterator[Callable[..., RawReceiver]]:
    made: list[RawReceiver] = []

    def make(answer: Answer, **options) -> RawReceiver:
        made.append(RawReceiver(answer, **options))
        return made[-1]

    yield make
    for receiver in made:
        receiver.close()


@pytest.fixture
def sender() -> Iterator[LoopSender]:
    sender = LoopSender(allow_private=True)
    yield sender
    sender.close()


def send(sender: LoopSender, url: str, *, timeout: float = 2.0, headers: dict | None = None):
    [future] = sender.send_all([LoopRequest(url=url, body=b'{"type":"lead.ping"}',
                                            headers=headers or {"Content-Type": "application/json"},
                                            timeout=timeout)])
    return future.result(10)


def test_a_ping_is_one_well_formed_request_and_its_answer_is_read(sender, receivers):
    receiver = receivers(lambda _: ok())
    result = send(sender, receiver.url, headers={"Content-Type": "application/json", "webhook-id": "msg_1"})
    assert (result.outcome, result.status_code, result.response_body, result.error) == (
        Outcome.DELIVERED, 200, '{"bid": 12.5}', None)
    [request] = receiver.requests
    head, body = request.split(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    assert lines[0] == b"POST /ping?campaign=7 HTTP/1.1"
    assert f"Host: 127.0.0.1:{receiver.port}".encode() in lines and b"webhook-id: msg_1" in lines
    assert b"Content-Length: 20" in lines and body == b'{"type":"lead.ping"}'


def test_kept_connections_carry_many_pings_and_a_dropped_one_is_replaced(sender, receivers):
    receiver = receivers(lambda number: ok() if number < 3 else None)  # hangs up after three answers
    results = [send(sender, receiver.url) for _ in range(7)]
    assert all(result.status_code == 200 for result in results)
    # Three on the first connection; the fourth found it closed and went on a new one, and so on.
    assert receiver.connections == 3 and len(receiver.requests) == 9


def test_chunked_close_delimited_and_interim_answers_are_read_to_their_end(sender, receivers):
    chunked = receivers(lambda _: b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                  b"6\r\n{\"bid\"\r\n5\r\n: 7.5\r\n1\r\n}\r\n0\r\n\r\n")
    closing = receivers(lambda _: b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{\"bid\": 3}")
    interim = receivers(lambda _: b"HTTP/1.1 100 Continue\r\n\r\n" + ok(b'{"bid": 4}'))
    assert send(sender, chunked.url).response_body == '{"bid": 7.5}'
    assert send(sender, closing.url).response_body == '{"bid": 3}'
    assert (send(sender, interim.url).status_code, send(sender, interim.url).response_body) == (200, '{"bid": 4}')


def test_an_answer_past_the_size_limit_is_cut_off_and_its_connection_closed(sender, receivers):
    receiver = receivers(lambda _: ok(b"x" * (RESPONSE_BODY_LIMIT * 4)))
    first, second = send(sender, receiver.url), send(sender, receiver.url)
    assert first.status_code == 200 and len(first.response_body) == RESPONSE_BODY_LIMIT
    assert first.error == "answer cut off at the size limit" and second.status_code == 200
    assert receiver.connections == 2


def test_redirects_are_reported_not_followed(sender, receivers):
    receiver = receivers(lambda _: b"HTTP/1.1 302 Found\r\nLocation: https://elsewhere.example/\r\n"
                                   b"Content-Length: 0\r\n\r\n")
    result = send(sender, receiver.url)
    assert result.status_code == 302 and "redirect to https://elsewhere.example/" in result.error
    assert len(receiver.requests) == 1


def test_an_answer_that_is_not_http_is_an_error_to_retry(sender, receivers):
    receiver = receivers(lambda _: b"220 smtp.example ESMTP ready\r\n\r\n")
    result = send(sender, receiver.url, timeout=1.0)
    assert result.outcome == Outcome.RETRY and result.status_code is None
    assert result.error.startswith("ReceiverProtocolError: not an HTTP answer")


def test_an_answer_cut_short_keeps_its_status_and_says_so(sender, receivers):
    receiver = receivers(lambda _: b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\nConnection: close\r\n\r\nshort")
    result = send(sender, receiver.url)
    assert (result.status_code, result.response_body) == (200, "short")
    assert result.error == "answer cut off: the receiver closed the connection"


def test_a_receiver_slower_than_the_deadline_is_a_timeout_within_it(sender, receivers):
    receiver = receivers(lambda _: ok(), delay=1.0)
    started = time.monotonic()
    result = send(sender, receiver.url, timeout=0.3)
    assert time.monotonic() - started < 0.9
    assert result.outcome == Outcome.RETRY and result.status_code is None and "deadline" in result.error
    assert result.duration_ms >= 290


def test_private_addresses_are_refused_where_the_connection_is_made(receivers):
    receiver = receivers(lambda _: ok())
    strict = LoopSender(allow_private=False)
    try:
        by_address = send(strict, receiver.url.replace("http://", "https://"))
        by_name = send(strict, f"https://localhost:{receiver.port}/ping")
        plain = send(strict, receiver.url)
    finally:
        strict.close()
    assert by_address.outcome == by_name.outcome == Outcome.REJECTED
    assert "private, loopback or link-local" in by_name.error and not by_name.sent
    assert plain.outcome == Outcome.REJECTED and "is not https" in plain.error
    assert receiver.requests == []


@pytest.mark.parametrize("url", ["http://127.0.0.1:{port}/ping now", "http://127.0.0.1:{port}/a\r\nX-Evil: 1",
                                 "http://127.0.0.1:99999/ping"], ids=["space", "crlf", "bad-port"])
def test_a_url_that_would_write_its_own_request_is_an_error_not_a_request(sender, receivers, url):
    receiver = receivers(lambda _: ok())
    result = send(sender, url.format(port=receiver.port))
    assert result.outcome == Outcome.RETRY and result.status_code is None and result.error
    assert receiver.requests == []


def test_nobody_listening_is_an_error_to_retry(sender):
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    result = send(sender, f"http://127.0.0.1:{port}/ping")
    assert result.outcome == Outcome.RETRY and "ConnectionRefusedError" in result.error


def test_requests_cancelled_before_they_start_are_never_sent(receivers):
    receiver = receivers(lambda _: ok())
    sender = LoopSender(allow_private=True)
    try:
        # The loop is kept busy, so the hand-off waits until the futures below are cancelled.
        blocked = threading.Event()
        sender._loop.call_soon_threadsafe(blocked.wait, 5)
        futures = sender.send_all([LoopRequest(url=receiver.url, body=b"{}", headers={}, timeout=1.0)] * 3)
        assert all(future.cancel() for future in futures)
        blocked.set()
        after = send(sender, receiver.url)
    finally:
        sender.close()
    assert after.status_code == 200 and len(receiver.requests) == 1


def test_a_deadline_missed_while_the_loop_was_held_up_is_the_worker_s_not_the_receiver_s(sender, receivers):
    """The receiver answers in 150 ms of a 300 ms deadline, but the worker holds the loop up from
    100 to 700 ms: the answer is read, or the miss is put down to the worker."""
    receiver = receivers(lambda _: ok(), delay=0.15)
    [future] = sender.send_all([LoopRequest(url=receiver.url, body=b"{}", headers={}, timeout=0.3)])
    time.sleep(0.1)
    sender._loop.call_soon_threadsafe(time.sleep, 0.6)
    result = future.result(10)
    assert result.status_code == 200 or result.error == WORKER_TOO_BUSY
    assert answer_of(result, 0.3)[2] in (None, WORKER_TOO_BUSY)


def test_a_stall_that_ends_as_the_deadline_falls_due_is_the_worker_s(sender, receivers):
    """The receiver answers in 100 ms of a 500 ms deadline, and the loop is held up until just after
    the deadline: the deadline's timer runs on time, yet the answer waited unread through the stall."""
    receiver = receivers(lambda _: ok(), delay=0.1)
    [future] = sender.send_all([LoopRequest(url=receiver.url, body=b"{}", headers={}, timeout=0.5)])
    time.sleep(0.05)
    sender._loop.call_soon_threadsafe(time.sleep, 0.47)
    result = future.result(10)
    assert result.status_code == 200 or result.error == WORKER_TOO_BUSY
    assert answer_of(result, 0.5)[2] in (None, WORKER_TOO_BUSY)


def test_a_receiver_past_its_deadline_on_a_loop_that_never_stalled_is_the_receiver_s(sender, receivers):
    receiver = receivers(lambda _: ok(), delay=0.6)
    results = [send(sender, receiver.url, timeout=0.3) for _ in range(3)]
    assert [result.error for result in results] == ["TimeoutError: the attempt's deadline passed"] * 3
