"""The sockets under the delivery HTTP client: a hard deadline per attempt, and no private hosts.

A socket timeout bounds each operation, so a receiver that trickles one byte a second keeps an
attempt alive indefinitely. Here every connect, read and write is given at most the time left
until the attempt's deadline, and fails once it has passed, whatever the receiver does.

The address check happens at connect time, on the addresses actually connected to, so a host
name that resolves to a private address (or is re-pointed at one after a check) is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import ssl
import time
from collections.abc import Iterator
from contextvars import ContextVar

_deadline: ContextVar[float | None] = ContextVar("delivery_attempt_deadline", default=None)


class PrivateAddressRefused(Exception):
    """The receiver's host resolves to an address outbound deliveries may not reach."""


@contextlib.contextmanager
def attempt_deadline(seconds: float) -> Iterator[None]:
    """Every network operation of the calling thread inside this block ends by `seconds` from now."""
    token = _deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)


def time_left() -> float | None:
    """Seconds until the attempt's deadline (None outside an attempt); raises once it has passed."""
    deadline = _deadline.get()
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the attempt's deadline passed")
    return left


def is_public_address(address: str) -> bool:
    """False for private, loopback, link-local, multicast, reserved and unspecified addresses."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


class _DeadlineIO:
    """Each blocking call first sets the socket's timeout to the time left of the attempt."""

    def _bounded(self) -> None:
        self.settimeout(time_left())

    def recv_into(self, buffer, nbytes=0, flags=0):
        self._bounded()
        return super().recv_into(buffer, nbytes, flags)

    def recv(self, bufsize, flags=0):
        self._bounded()
        return super().recv(bufsize, flags)

    def sendall(self, data, flags=0):
        self._bounded()
        return super().sendall(data, flags)

    def send(self, data, flags=0):
        self._bounded()
        return super().send(data, flags)


class _DeadlineSocket(_DeadlineIO, socket.socket):
    pass


class _DeadlineSSLSocket(_DeadlineIO, ssl.SSLSocket):
    pass  # its reads and writes go through recv_into and send


def tls_context() -> ssl.SSLContext:
    """Certificate and host name checked, as any HTTPS client; its sockets keep the deadline."""
    context = ssl.create_default_context()
    context.sslsocket_class = _DeadlineSSLSocket
    return context


def connect(host: str, port: int, *, allow_private: bool, tls: ssl.SSLContext | None) -> socket.socket:
    """A connected socket to host:port (TLS when given a context) within the attempt's time left."""
    if allow_private:
        plain = socket.create_connection((host, port), timeout=time_left())
    else:
        # Connect to an address that was checked, never to the name again (no second lookup).
        plain = socket.create_connection((_public_address(host, port), port), timeout=time_left())
    plain.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    guarded = _DeadlineSocket(plain.family, plain.type, plain.proto, fileno=plain.detach())
    if tls is None:
        return guarded
    guarded.settimeout(time_left())
    try:
        return tls.wrap_socket(guarded, server_hostname=host)
    except BaseException:
        guarded.close()
        raise


def _public_address(host: str, port: int) -> str:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ConnectionError(f"cannot resolve {host}: {exc}") from exc
    return only_public(host, [info[4][0] for info in infos])


async def public_address(host: str, port: int) -> str:
    """The address an event-loop connection to host:port goes to: resolved once, without blocking
    the loop, and public, as `connect` checks it."""
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ConnectionError(f"cannot resolve {host}: {exc}") from exc
    return only_public(host, [info[4][0] for info in infos])


def only_public(host: str, addresses: list[str]) -> str:
    """The first of the addresses `host` resolved to, when every one of them is public."""
    public = [address for address in addresses if is_public_address(address)]
    if not public or len(public) != len(addresses):
        raise PrivateAddressRefused(
            f"{host} resolves to a private, loopback or link-local address "
            f"({', '.join(sorted(set(addresses)))}); set SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS=true "
            "to allow it (development and tests only)")
    return public[0]
