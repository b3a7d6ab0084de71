"""GET /metrics: answered to the allowed addresses only, as the trusted-proxy rule reads them;
everyone else gets what any unknown path gets. Requests are labelled by route template."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from servicematch.app import create_app
from servicematch.ops.metrics import allowed_networks, is_allowed

PROXY = "10.0.0.1"
LOCAL = "127.0.0.1"


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"trusted_proxies": PROXY, "metrics_allow": "127.0.0.1, 192.0.2.0/24"})


def families(text: str) -> set[str]:
    return {family.name for family in text_string_to_metric_families(text)}


def from_address(app, address: str) -> TestClient:
    """A client at `address`; used without `with`, so the app's start-up (not needed here) is skipped."""
    return TestClient(app, client=(address, 50000))


def test_an_allowed_address_reads_every_process_count_and_the_deployment_figures(app):
    answer = from_address(app, LOCAL).get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=")
    assert answer.headers["cache-control"] == "no-store"
    assert {"servicematch_leads", "servicematch_http_request_duration_seconds", "servicematch_auction_duration_seconds",
            "servicematch_bids", "servicematch_delivery_attempts", "servicematch_outbox_pending",
            "servicematch_outbox_oldest_pending_seconds", "servicematch_offers_open", "servicematch_leads_held",
            "servicematch_circuit_breakers_open", "servicematch_routing_pending"} <= families(answer.text)


def test_anyone_else_gets_exactly_what_an_unknown_path_gets(app):
    stranger = from_address(app, "203.0.113.5")
    refused = stranger.get("/metrics")
    unknown = stranger.get("/no-such-page")
    refused_post = stranger.post("/metrics")
    unknown_post = stranger.post("/no-such-page")
    assert refused.status_code == unknown.status_code == 404
    # The site's 404 page names the path it was asked for (its canonical link), and only that differs.
    assert refused.text.replace("/metrics", "/no-such-page") == unknown.text
    assert refused.headers["content-type"] == unknown.headers["content-type"]
    assert "servicematch_" not in refused.text
    assert refused_post.status_code == unknown_post.status_code


def test_an_allowed_address_asking_with_another_method_gets_what_an_unknown_path_gets(app):
    local = from_address(app, LOCAL)
    assert local.post("/metrics").status_code == local.post("/no-such-page").status_code
    assert local.get("/metrics/").status_code == 404


# (the socket's peer, X-Forwarded-For, whether /metrics answers)
ADDRESSES = [
    (PROXY, "192.0.2.7", True),  # our proxy reports an allowed client
    (PROXY, "198.51.100.1", False),  # our proxy reports a stranger
    (PROXY, "192.0.2.7, 198.51.100.1", False),  # the nearest hop our proxy saw is the stranger
    ("198.51.100.9", "127.0.0.1", False),  # a stranger claims to be local: not a proxy we trust
    (PROXY, None, False),  # the proxy itself is not on the list
    ("192.0.2.8", None, True),  # an allowed client without a proxy
    # A proxy we were not told to trust, on an allowed address, passing on a stranger's request.
    ("127.0.0.1", "203.0.113.9", False),
]


def test_the_client_address_is_read_as_the_trusted_proxy_rule_reads_it(app):
    # One app for every case: its first 404 page costs seconds to build.
    for peer, forwarded, answered in ADDRESSES:
        headers = {"X-Forwarded-For": forwarded} if forwarded else {}
        answer = from_address(app, peer).get("/metrics", headers=headers)
        assert (answer.status_code, "servicematch_leads" in answer.text) == (
            (200, True) if answered else (404, False)), (peer, forwarded)


def test_the_allow_list_takes_addresses_and_ranges():
    networks = allowed_networks("127.0.0.1, 192.0.2.0/24,::1")
    assert is_allowed("127.0.0.1", networks)
    assert is_allowed("192.0.2.200", networks)
    assert is_allowed("::1", networks)
    assert is_allowed("::ffff:127.0.0.1", networks)
    assert not is_allowed("127.0.0.2", networks)
    assert not is_allowed("testclient", networks)
    assert not is_allowed("", networks)
    assert not is_allowed("127.0.0.1", allowed_networks(""))


def test_a_malformed_allow_list_stops_start_up(settings):
    with pytest.raises(ValueError, match="SERVICEMATCH_METRICS_ALLOW"):
        create_app(settings.model_copy(update={"metrics_allow": "localhost"}))


def test_requests_are_labelled_by_their_route_template_never_their_path(app):
    request_id = f"req-{uuid.uuid4().hex}"
    local = from_address(app, LOCAL)
    local.get(f"/api/leads/{request_id}/status")
    local.get(f"/no-such-page-{request_id}")
    local.head("/api/health")
    text = local.get("/metrics").text
    assert request_id not in text
    assert 'route="/api/leads/{request_id}/status"' in text
    assert 'route="/{path:path}"' in text  # the site's catch-all answered the unknown page
    assert 'method="GET",route="/api/health"' in text  # HEAD is answered as GET


def test_several_apps_in_one_process_answer_side_by_side(app, settings):
    other = create_app(settings)
    try:
        first, second = from_address(app, LOCAL), from_address(other, LOCAL)
        assert first.get("/metrics").status_code == 200
        assert second.get("/metrics").status_code == 200
        assert first.get("/metrics").status_code == 200
    finally:
        other.state.lead_store.stop()
        other.state.engine.dispose()
