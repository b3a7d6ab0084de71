"""What the server itself can tell about the visitor: address, browser, privacy signal."""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from starlette.requests import Request

from .validation import strip_control_characters

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
# Where a request's scope keeps the address once worked out: (the trusted proxies setting, address).
_CLIENT_IP_KEY = "servicematch.client_ip"


@lru_cache(maxsize=16)
def parse_proxies(trusted_proxies: str) -> tuple[Network, ...]:
    """'10.0.0.0/8, 127.0.0.1' -> networks; an empty setting trusts no proxy."""
    return tuple(
        ipaddress.ip_network(item.strip(), strict=False) for item in trusted_proxies.split(",") if item.strip()
    )


PROXY, CLIENT, NOT_AN_ADDRESS = "proxy", "client", "not an address"


@lru_cache(maxsize=1024)
def _kind_of(address: str, proxies: tuple[Network, ...]) -> str:
    """One of our proxies, some client, or not an address at all. Kept: our proxies' few
    addresses come with every request, and parsing one costs more than the rest of the work."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return NOT_AN_ADDRESS
    return PROXY if any(ip in network for network in proxies) else CLIENT


def client_ip(request: Request, *, trusted_proxies: str) -> str:
    """The visitor's address: the socket peer, or the X-Forwarded-For hop a trusted proxy reports.

    The header is read right to left, skipping our own proxies; the first other address is the
    one our outermost proxy saw. Entries further left were written by the client and may be forged.
    Worked out once per request: the rate limit and the route both ask.
    """
    known = request.scope.get(_CLIENT_IP_KEY)
    if known is not None and known[0] == trusted_proxies:
        return known[1]
    address = _client_ip(request, trusted_proxies)
    request.scope[_CLIENT_IP_KEY] = (trusted_proxies, address)
    return address


def _client_ip(request: Request, trusted_proxies: str) -> str:
    peer = request.client.host if request.client else ""
    proxies = parse_proxies(trusted_proxies)
    if not proxies or _kind_of(peer, proxies) != PROXY:
        return peer
    forwarded = [hop.strip() for hop in request.headers.get("x-forwarded-for", "").split(",") if hop.strip()]
    for hop in reversed(forwarded):
        kind = _kind_of(hop, proxies)
        if kind != PROXY:
            return hop if kind == CLIENT else peer
    # Every hop is one of our proxies: the outermost is the nearest thing to the client.
    return forwarded[0] if forwarded else peer


def sends_global_privacy_control(request: Request) -> bool:
    """Sec-GPC: 1 is a do-not-sell/share request under CCPA regulations."""
    return request.headers.get("sec-gpc", "").strip() == "1"


def user_agent(request: Request, *, reported: str) -> str:
    """The User-Agent header (controls removed); the browser-reported one only when it is missing."""
    return strip_control_characters(request.headers.get("user-agent", "")) or reported
