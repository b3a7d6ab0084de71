"""Label values stay within closed sets: no free text, no personal data, a bounded number of series."""

from __future__ import annotations

from servicematch.kernel.metrics_labels import (
    BID_OUTCOMES,
    LEAD_OUTCOMES,
    OTHER,
    closed_label,
    endpoint_kind,
    id_label,
    method_label,
    status_class,
)


def test_a_word_outside_its_set_is_counted_as_other():
    assert closed_label("accepted", LEAD_OUTCOMES) == "accepted"
    assert closed_label("maria.garcia@example.com", LEAD_OUTCOMES) == OTHER
    assert closed_label("bid", BID_OUTCOMES) == "bid"
    assert closed_label("Bid", BID_OUTCOMES) == OTHER


def test_ids_pass_and_anything_else_does_not():
    assert id_label("3f2c7a9e-1b4d-4c8e-9a7f-2d6b1e0c5a34") == "3f2c7a9e-1b4d-4c8e-9a7f-2d6b1e0c5a34"
    assert id_label("a1b2c3d4") == "a1b2c3d4"
    for not_an_id in ("Acme Leads LLC", "maria.garcia@example.com", "5125550142 ", "", "x" * 65, None):
        assert id_label(not_an_id) == OTHER


def test_statuses_are_counted_by_class():
    assert [status_class(code) for code in (200, 202, 302, 404, 429, 500, 99, 600)] == [
        "2xx", "2xx", "3xx", "4xx", "4xx", "5xx", OTHER, OTHER]


def test_methods_outside_http_are_other():
    assert method_label("GET") == "GET"
    assert method_label("PROPFIND") == OTHER


def test_endpoint_kinds_follow_the_endpoint_keys():
    assert endpoint_kind("buyer") == "buyer"
    assert endpoint_kind("smtp") == "smtp"
    assert endpoint_kind("buyer:3f2c7a9e") == "buyer_post"
    assert endpoint_kind("lead.discard:buyer:3f2c7a9e") == "buyer_post"
    assert endpoint_kind("webhook:9d1e") == "webhook"
    assert endpoint_kind("somewhere else") == OTHER
