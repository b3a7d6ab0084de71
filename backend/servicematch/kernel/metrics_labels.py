"""Label values of the metrics: closed sets of words, ids and templates, never a consumer's data.

Whatever a caller passes outside a closed set is counted as "other", so a label can never carry
free text (an error message, a name, a path) and the number of series stays what the sets allow.
"""

from __future__ import annotations

import re

OTHER = "other"

# servicematch_leads_total{outcome}: accepted, or why the submission was refused.
LEAD_OUTCOMES = frozenset({
    "accepted",
    "invalid",  # 422: the body or an answer failed a check
    "unknown_service",  # 404: no such service (or not of this form's flow)
    "recaptcha_failed",  # 400: reCAPTCHA did not vouch for the visitor
    "request_id_reused",  # 409: the requestId came before with another body
    "rate_limited",  # 429: the client address used up its submissions
    "failed",  # anything else (a 5xx)
})
# servicematch_bids_total{outcome}: a bid; a pass (including one under the buyer's floor or its
# budget); no answer within the ping timeout; not pinged (not on the consumer's partner list, or
# our worker too busy to ask in time).
BID_OUTCOMES = frozenset({"bid", "pass", "timeout", "not_pinged"})
# servicematch_delivery_attempts_total{result}: Outcome of servicematch.outbound.outcome, or
# "not_sent" when nothing left this machine (a setting missing, the lead withheld).
DELIVERY_RESULTS = frozenset({"delivered", "rejected", "retry", "unknown", "not_sent"})
# Endpoint kinds (delivery/endpoints.py's keys): the fixed SERVICEMATCH_BUYER_URL buyer
# ("buyer"), an auction buyer's posts and the notices that follow them ("buyer:<id>",
# "lead.discard:buyer:<id>"), a provider's webhook ("webhook:<id>"), and the SMTP server ("smtp").
ENDPOINT_KINDS = frozenset({"buyer", "buyer_post", "webhook", "smtp"})
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# Ids are uuids or hex; anything else (a name with spaces, an e-mail) is not taken as a label.
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def closed_label(value: str, allowed: frozenset[str]) -> str:
    return value if value in allowed else OTHER


def id_label(value: str) -> str:
    """An id (a buyer's, a worker's) as it is, anything else as "other"."""
    return value if isinstance(value, str) and _ID.match(value) else OTHER


def method_label(method: str) -> str:
    return method if method in METHODS else OTHER


def status_class(status: int) -> str:
    """200 -> "2xx": five values, not one per status code."""
    return f"{status // 100}xx" if 100 <= status <= 599 else OTHER


def endpoint_kind(endpoint_key: str) -> str:
    """The kind of a delivery endpoint, from its key: "buyer", "buyer_post", "webhook" or "smtp"."""
    if endpoint_key in ("buyer", "smtp"):
        return endpoint_key
    # A privacy notice to a post's buyer goes to "<notice>:buyer:<id>", the buyer's own endpoint.
    if "buyer:" in endpoint_key:
        return "buyer_post"
    if endpoint_key.startswith("webhook:"):
        return "webhook"
    return OTHER
