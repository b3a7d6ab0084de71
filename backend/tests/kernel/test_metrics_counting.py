"""Counting in one process's memory (as tests and one-off commands do) and the scrape's text."""

from __future__ import annotations

from prometheus_client.core import GaugeMetricFamily
from prometheus_client.parser import text_string_to_metric_families

from servicematch.kernel import metrics


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of a scrape (0 when absent)."""
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and found.labels == labels:
                return found.value
    return 0.0


def scrape(*figures) -> str:
    return metrics.exposition(*figures).decode()


def test_this_process_counts_in_memory_unless_told_otherwise():
    assert metrics.shared_directory() is None


def test_leads_are_counted_by_outcome_and_unknown_outcomes_as_other():
    before = scrape()
    metrics.count_lead("accepted")
    metrics.count_lead("accepted")
    metrics.count_lead("rate_limited")
    metrics.count_lead("Maria Garcia")
    after = scrape()
    for outcome, added in (("accepted", 2), ("rate_limited", 1), ("other", 1)):
        assert sample(after, "servicematch_leads_total", outcome=outcome) - sample(
            before, "servicematch_leads_total", outcome=outcome) == added
    assert "Maria" not in after


def test_requests_are_timed_by_route_template_and_status_class():
    labels = {"route": "/api/leads/{request_id}/status", "method": "GET"}
    before = scrape()
    metrics.observe_request(labels["route"], "GET", 200, 0.004)
    metrics.observe_request(labels["route"], "GET", 404, 0.3)
    after = scrape()

    def added(name: str, **more: str) -> float:
        return sample(after, name, **labels, **more) - sample(before, name, **labels, **more)

    assert added("servicematch_http_request_duration_seconds_count") == 2
    assert added("servicematch_http_request_duration_seconds_bucket", le="0.005") == 1
    assert added("servicematch_http_request_duration_seconds_bucket", le="0.5") == 2
    assert added("servicematch_http_requests_total", status="2xx") == 1
    assert added("servicematch_http_requests_total", status="4xx") == 1


def test_auctions_bids_and_delivery_attempts_are_counted():
    before = scrape()
    metrics.observe_auction(0.42)
    metrics.count_bid("3f2c7a9e-1b4d", "bid")
    metrics.count_bid("3f2c7a9e-1b4d", "timeout")
    metrics.count_bid("Acme Leads LLC", "pass")
    metrics.count_delivery_attempt(metrics.endpoint_kind("webhook:9d1e"), "delivered")
    metrics.count_delivery_attempt("buyer_post", "not_sent")
    after = scrape()

    def added(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert added("servicematch_auction_duration_seconds_count") == 1
    assert added("servicematch_auction_duration_seconds_bucket", le="0.5") == 1
    assert added("servicematch_auction_duration_seconds_bucket", le="0.25") == 0
    assert added("servicematch_bids_total", buyer="3f2c7a9e-1b4d", outcome="bid") == 1
    assert added("servicematch_bids_total", buyer="3f2c7a9e-1b4d", outcome="timeout") == 1
    assert added("servicematch_bids_total", buyer="other", outcome="pass") == 1
    assert added("servicematch_delivery_attempts_total", kind="webhook", result="delivered") == 1
    assert added("servicematch_delivery_attempts_total", kind="buyer_post", result="not_sent") == 1
    assert "Acme" not in after


class _Figures:
    """A collector read at each scrape, as the deployment's figures are."""

    def __init__(self) -> None:
        self.reads = 0

    def collect(self):
        self.reads += 1
        return [GaugeMetricFamily("servicematch_test_reads", "Reads so far.", value=self.reads)]


def test_each_scrape_reads_the_figures_afresh_in_a_registry_of_its_own():
    figures = _Figures()
    assert sample(scrape(figures), "servicematch_test_reads") == 1
    # A second scrape with the same collector: a new registry each time, so no name clashes.
    assert sample(scrape(figures), "servicematch_test_reads") == 2
    assert sample(scrape(), "servicematch_test_reads") == 0
