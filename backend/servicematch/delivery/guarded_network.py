"""The network layer under the delivery HTTP client: a hard deadline per attempt, and no private hosts.

httpx's timeouts bound each socket operation, so a receiver that trickles one byte a second keeps
an attempt alive indefinitely. Here every connect, read and write is given at most the time left
until the attempt's deadline, and fails once it has passed, whatever the receiver does.

The address check happens at connect time, on the addresses actually connected to, so a host
name that resolves to a private address (or is re-pointed at one after a check) is refused.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import time
from collections.abc import Iterator
from contextvars import ContextVar

import httpcore

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


def _time_left(timeout: float | None, error: type[Exception]) -> float | None:
    deadline = _deadline.get()
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise error("the attempt's deadline passed")
    return left if timeout is None else min(timeout, left)


def is_public_address(address: str) -> bool:
    """False for private, loopback, link-local, multicast, reserved and unspecified addresses."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


class _DeadlineStream(httpcore.NetworkStream):
    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _time_left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _time_left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(self, ssl_context, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        upgraded = self._stream.start_tls(ssl_context, server_hostname,
                                          _time_left(timeout, httpcore.ConnectTimeout))
        return _DeadlineStream(upgraded)

    def get_extra_info(self, info: str):
        return self._stream.get_extra_info(info)


class GuardedBackend(httpcore.NetworkBackend):
    """Synchronous sockets with the attempt deadline applied, and (optionally) public hosts only."""

    def __init__(self, *, allow_private: bool) -> None:
        self.allow_private = allow_private
        self._backend = httpcore.SyncBackend()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None, socket_options=None) -> httpcore.NetworkStream:
        timeout = _time_left(timeout, httpcore.ConnectTimeout)
        if not self.allow_private:
            # Connect to an address that was checked, never to the name again (no second lookup).
            host = self._public_address(host, port)
        stream = self._backend.connect_tcp(host, port, timeout=timeout, local_address=local_address,
                                           socket_options=socket_options)
        return _DeadlineStream(stream)

    def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options=None):
        raise PrivateAddressRefused("deliveries are never sent to a Unix socket")

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)

    @staticmethod
    def _public_address(host: str, port: int) -> str:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except socket.gaierror as exc:
            raise httpcore.ConnectError(f"cannot resolve {host}: {exc}") from exc
        addresses = [info[4][0] for info in infos]
        public = [address for address in addresses if is_public_address(address)]
        if not public or len(public) != len(addresses):
            raise PrivateAddressRefused(
                f"{host} resolves to a private, loopback or link-local address "
                f"({', '.join(sorted(set(addresses)))}); set SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS=true "
                "to allow it (development and tests only)")
        return public[0]
