"""The visitor's address, read once per request and read again when the trusted proxies differ."""

from __future__ import annotations

from starlette.requests import Request

from servicematch.inbound.client import client_ip


def request_from(peer: str, forwarded: str) -> Request:
    return Request({"type": "http", "headers": [(b"x-forwarded-for", forwarded.encode())], "client": (peer, 40000)})


def test_the_address_behind_a_trusted_proxy_is_the_last_hop_it_did_not_add():
    request = request_from("10.0.0.2", "198.51.100.7, 203.0.113.9, 10.0.0.3")
    assert client_ip(request, trusted_proxies="10.0.0.0/8") == "203.0.113.9"


def test_a_second_ask_in_the_same_request_gets_the_same_answer_without_reading_the_header_again():
    request = request_from("10.0.0.2", "203.0.113.9")
    assert client_ip(request, trusted_proxies="10.0.0.0/8") == "203.0.113.9"
    # The route sees the request through another Request over the same scope.
    request.scope["headers"] = [(b"x-forwarded-for", b"198.51.100.99")]
    assert client_ip(Request(request.scope), trusted_proxies="10.0.0.0/8") == "203.0.113.9"
    assert client_ip(request_from("10.0.0.2", "198.51.100.99"), trusted_proxies="10.0.0.0/8") == "198.51.100.99"


def test_another_trusted_proxies_setting_is_worked_out_afresh():
    request = request_from("10.0.0.2", "203.0.113.9")
    assert client_ip(request, trusted_proxies="10.0.0.0/8") == "203.0.113.9"
    assert client_ip(request, trusted_proxies="") == "10.0.0.2"
    assert client_ip(request, trusted_proxies="10.0.0.0/8") == "203.0.113.9"


def test_a_forged_left_entry_or_garbage_never_becomes_the_address():
    assert client_ip(request_from("10.0.0.2", "not-an-ip"), trusted_proxies="10.0.0.0/8") == "10.0.0.2"
    assert client_ip(request_from("192.0.2.50", "203.0.113.9"), trusted_proxies="10.0.0.0/8") == "192.0.2.50"
