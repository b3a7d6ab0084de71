"""The form checks: the honeypot, how long the form took by the browser's report and by the server's
own clock, the report against the server's clock, and reCAPTCHA's score.

The server's clock is the visitor's tab as the funnel events saw it: the page sends a page view
and a step view (POST /api/events, with the tab's id) when the form first shows, and the server
stamps each as it arrives. From that first event to the lead's own created_at is how long the
form was open at the least; a browser that reports more than that (beyond SLACK_SECONDS, for a
beacon that arrived late) reports what did not happen.
"""

from __future__ import annotations

from datetime import datetime

from .history import History
from .reasons import (
    FORM_TIMING_MISMATCH,
    FORM_TOO_FAST,
    FORM_UNCONFIRMED,
    FORM_UNREPORTED,
    HONEYPOT,
    RECAPTCHA_LOW,
)

# How much more than the server saw a browser's report may say: a page view's beacon can leave a
# few seconds after the page shows, and arrive later on a slow connection.
SLACK_SECONDS = 15.0
# reCAPTCHA passes scores from SERVICEMATCH_RECAPTCHA_MIN_SCORE; under this one they are doubtful
# (Google's own guidance reads 0.7 and up as a person).
RECAPTCHA_DOUBTFUL = 0.7
# The flows whose pages report their timing (the lead form); the call flow's do not yet.
REPORTING_FLOWS = frozenset({"form"})


def form_reasons(signals: dict | None, *, flow: str, created_at: datetime, history: History,
                 min_seconds: float) -> list[str]:
    """The reasons `Lead.quality_signals` (and the funnel events' first sight of the tab) give."""
    signals = signals or {}
    reasons = [HONEYPOT] if signals.get("honeypot") else []
    reported = signals.get("form_seconds")
    observed = (created_at - history.first_seen_at).total_seconds() if history.first_seen_at else None
    if (reported is not None and reported < min_seconds) or (observed is not None and observed < min_seconds):
        reasons.append(FORM_TOO_FAST)
    if observed is not None and reported is not None and reported > observed + SLACK_SECONDS:
        reasons.append(FORM_TIMING_MISMATCH)
    if observed is None and signals.get("tab_id"):
        reasons.append(FORM_UNCONFIRMED)
    if reported is None and not signals.get("tab_id") and flow in REPORTING_FLOWS:
        reasons.append(FORM_UNREPORTED)
    score = signals.get("recaptcha_score")
    if score is not None and score < RECAPTCHA_DOUBTFUL:
        reasons.append(RECAPTCHA_LOW)
    return reasons
