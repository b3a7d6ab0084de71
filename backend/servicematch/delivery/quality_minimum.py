"""The least quality score a buyer or provider takes: its bounds and its check, shared by every
place that sets one (the CLI, the console, both portals). The score itself is the quality gate's
(Lead.quality_score, 0 to 100: docs/quality.md); routing/buyer_rules.py applies the minimum."""

from __future__ import annotations

from servicematch.errors import ServiceMatchError

LOWEST_SCORE = 0
HIGHEST_SCORE = 100


def check_min_quality(value: object, *, field: str = "min_quality") -> int | None:
    """The minimum as stored (None: any score), or a 422 naming `field`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not LOWEST_SCORE <= value <= HIGHEST_SCORE:
        message = f"a minimum quality score is a whole number from {LOWEST_SCORE} to {HIGHEST_SCORE}, or none"
        raise ServiceMatchError(message, fields={field: message}, status_code=422)
    return value


def parse_min_quality(text: str | None, *, field: str = "min-quality") -> int | None:
    """A minimum as typed on the command line ("60"; "none" or "" for any score)."""
    cleaned = (text or "").strip().lower()
    if cleaned in ("", "none"):
        return None
    try:
        number = int(cleaned)
    except ValueError:
        number = -1
    return check_min_quality(number, field=field)
