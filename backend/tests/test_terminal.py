from __future__ import annotations

from servicematch.terminal import safe_text


def test_plain_text_is_unchanged():
    assert safe_text("Café Zoë, Austin TX 78701 — ok") == "Café Zoë, Austin TX 78701 — ok"


def test_controls_separators_and_direction_overrides_are_shown_escaped():
    assert safe_text("a\nb\r\tc\x00\x1b[0m\x7f\x85\u2028\u202e\U000e0001") == (
        "a\\nb\\r\\tc\\x00\\x1b[0m\\x7f\\x85\\u2028\\u202e\\U000e0001")
