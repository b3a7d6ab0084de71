"""The US number rule agrees with phonenumbers' own parse-then-validate, over every area code."""

from __future__ import annotations

import random

import phonenumbers
import pytest

from servicematch.inbound.validation import INVALID_PHONE, is_us_number, phone_digits


def parsed_and_validated(ten_digits: str) -> bool:
    """What the rule answered before it skipped `phonenumbers.parse`."""
    return phonenumbers.is_valid_number_for_region(phonenumbers.parse(f"+1{ten_digits}"), "US")


def test_every_area_code_gets_the_answer_phonenumbers_parse_gives():
    draw = random.Random(20261126)
    numbers = [f"{area:03d}{draw.randrange(10**7):07d}" for area in range(1000) for _ in range(6)]
    # Exchanges that no line may have (N11 service codes, 555 fiction, leading 0 and 1) too.
    numbers += [f"512{exchange}{line}" for exchange in ("011", "111", "211", "555", "911", "000")
                for line in ("0100", "1234", "9999")]
    disagreements = [number for number in numbers if is_us_number(number) != parsed_and_validated(number)]
    assert disagreements == []
    valid = sum(map(is_us_number, numbers))
    assert 0 < valid < len(numbers)  # the sweep holds both kinds


@pytest.mark.parametrize("typed", ["+1 (512) 555-0100", "1-512-555-0100", "512.555.0100"])
def test_a_number_typed_with_the_country_code_or_punctuation_keeps_its_ten_digits(typed):
    assert phone_digits(typed) == ("5125550100", None)


@pytest.mark.parametrize("typed", ["0125550100", "1125550100", "2125550100x", "44 20 7946 0958"])
def test_numbers_outside_the_us_plan_are_invalid(typed):
    assert phone_digits(typed)[1] == INVALID_PHONE
