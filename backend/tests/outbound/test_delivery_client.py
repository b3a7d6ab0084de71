"""The worker's HTTP client: kept-alive connections, answers of every framing, receivers that hang up."""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from background_server import serve_in_background

from servicematch.outbound.guarded_network import attempt_deadline
from servicematch.outbound.http_sender import DeliveryClient, post_signed
from servicematch.outbound.outcome import RESPONSE_BODY_LIMIT


class _Receiver:
    """Answers each POST as `answer` says, and counts the connections it was sent on."""

    def __init__(self) -> None:
        self.connections: set[tuple] = set()
        self.bodies: list[bytes] = []
        self.answer = "length"
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                receiver.connections.add(self.client_address)
                receiver.bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
                if receiver.answer == "chunked":
                    self.send_response(200)
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    self.wfile.write(b"3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n")
                elif receiver.answer == "hang-up":
                    self.send_response(200)
                    self.send_header("Content-Length", "2")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(b"ok")
                    self.close_connection = True
                else:
                    self.send_response(201)
                    self.send_header("Content-Length", "8")
                    self.end_headers()
                    self.wfile.write(b"accepted")

            def log_message(self, *_args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        serve_in_background(self.server)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/leads?source=test"


@pytest.fixture
def receiver():
    server = _Receiver()
    yield server
    server.server.shutdown()


def _post(client: DeliveryClient, url: str, n: int):
    return post_signed(client=client, url=url, body=b'{"n": %d}' % n, secret="s", message_id=f"msg-{n}",
                       idempotency_key=str(n), timestamp=1, timeout=5)


def test_sends_to_one_receiver_reuse_one_kept_connection(receiver):
    client = DeliveryClient(allow_private=True)
    results = [_post(client, receiver.url, n) for n in range(5)]
    client.close()

    assert [(r.outcome, r.status_code, r.response_body) for r in results] == [("delivered", 201, "accepted")] * 5
    assert len(receiver.connections) == 1
    assert receiver.bodies == [b'{"n": %d}' % n for n in range(5)]


def test_a_chunked_answer_is_read_whole_and_the_connection_kept(receiver):
    receiver.answer = "chunked"
    client = DeliveryClient(allow_private=True)
    first, second = _post(client, receiver.url, 1), _post(client, receiver.url, 2)
    client.close()

    assert (first.response_body, first.error, second.response_body) == ("abcdefg", None, "abcdefg")
    assert len(receiver.connections) == 1


def test_a_receiver_that_closes_after_answering_gets_a_new_connection_next_time(receiver):
    receiver.answer = "hang-up"
    client = DeliveryClient(allow_private=True)
    results = [_post(client, receiver.url, n) for n in range(3)]
    client.close()

    assert [(r.outcome, r.response_body) for r in results] == [("delivered", "ok")] * 3
    assert len(receiver.connections) == 3


def test_a_kept_connection_the_receiver_dropped_is_not_used_again():
    # A bare server that answers once per connection and then hangs up without saying so.
    listener = socket.create_server(("127.0.0.1", 0))
    port, served = listener.getsockname()[1], []

    def serve() -> None:
        for _ in range(2):
            connection, _ = listener.accept()
            served.append(connection)  # before answering: the client may check as soon as it reads
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            connection.close()

    threading.Thread(target=serve, daemon=True).start()
    client = DeliveryClient(allow_private=True)
    url = f"http://127.0.0.1:{port}/"
    first = _post(client, url, 1)
    second = _post(client, url, 2)  # the kept connection is closed at the other end by now
    client.close()
    listener.close()

    assert (first.outcome, second.outcome) == ("delivered", "delivered")
    assert len(served) == 2


def test_an_answer_past_the_limit_is_cut_and_its_connection_not_kept():
    listener = socket.create_server(("127.0.0.1", 0))
    port, accepted = listener.getsockname()[1], []
    huge = b"x" * (RESPONSE_BODY_LIMIT * 4)

    def serve() -> None:
        for _ in range(2):
            connection, _ = listener.accept()
            accepted.append(connection)
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(huge) + huge)

    threading.Thread(target=serve, daemon=True).start()
    client = DeliveryClient(allow_private=True)
    url = f"http://127.0.0.1:{port}/"
    results = [_post(client, url, n) for n in (1, 2)]
    client.close()
    listener.close()

    assert [len(r.response_body) for r in results] == [RESPONSE_BODY_LIMIT] * 2
    assert all("size limit" in r.error for r in results)
    assert len(accepted) == 2  # the half-read connection was closed, not reused


def test_nothing_is_sent_once_the_attempt_deadline_has_passed(receiver):
    client = DeliveryClient(allow_private=True)
    with attempt_deadline(0.000001):
        threading.Event().wait(0.01)
        with pytest.raises(TimeoutError):
            client.post(receiver.url, body=b"{}", headers={})
    client.close()
