"""Months a request names ("YYYY-MM", a statement's): from 2000-01 to December of next year."""

from __future__ import annotations

from datetime import date

import pytest

from servicematch.inbound.validation import month_message, parse_month

TODAY = date(2026, 11, 23)


@pytest.mark.parametrize(("text", "first"), [
    ("2000-01", date(2000, 1, 1)), ("2026-11", date(2026, 11, 1)), ("2027-12", date(2027, 12, 1)),
])
def test_a_month_in_range_is_its_first_day(text, first):
    assert parse_month(text, today=TODAY) == first


@pytest.mark.parametrize("text", [
    "1999-12", "2028-01", "9999-12", "0000-01", "2026-13", "2026-00", "2026-1", "26-11", "2026-11-01", "november",
    "", "２０２６-11",
])
def test_anything_else_is_not_a_month(text):
    assert parse_month(text, today=TODAY) is None


def test_the_refusal_names_the_range():
    assert month_message(today=TODAY) == "Give the month as YYYY-MM, from 2000-01 to 2027-12."
    assert parse_month("2028-12", today=date(2027, 1, 1)) == date(2028, 12, 1)
