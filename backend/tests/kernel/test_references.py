"""A lead's reference: 8 characters of Crockford's base32, shown as XXXX-XXXX, read back as typed."""

from __future__ import annotations

import pytest

from servicematch.kernel.references import ALPHABET, new_reference, parse_reference, shown_reference


def test_a_new_reference_is_eight_unambiguous_characters():
    references = {new_reference() for _ in range(2000)}
    assert len(references) >= 1999  # two alike among 2000 is a one-in-500,000 chance; more, a broken generator
    for reference in references:
        assert len(reference) == 8
        assert set(reference) <= set(ALPHABET)
    assert not set("ILOU") & set(ALPHABET)
    # Every character turns up: the 40 random bits reach each position's whole alphabet.
    assert set("".join(references)) == set(ALPHABET)


def test_a_reference_is_shown_as_two_groups_of_four():
    assert shown_reference("7K3MQ9TX") == "7K3M-Q9TX"


@pytest.mark.parametrize("typed", ["7K3M-Q9TX", "7k3mq9tx", " 7k3m q9tx ", "7K3M-Q9TX".lower()])
def test_a_reference_is_read_with_or_without_its_dash_in_any_case(typed):
    assert parse_reference(typed) == "7K3MQ9TX"


def test_letters_read_aloud_for_digits_are_read_as_the_digits():
    assert parse_reference("ABCD-EFlo") == parse_reference("abcd-efio") == "ABCDEF10"


@pytest.mark.parametrize("typed", ["", "7K3M-Q9T", "7K3M-Q9TXX", "7K3M-Q9TU", "7K3M_Q9TX", "maria@example.com",
                                   "5125550142", "0b6f3f0e-6a43-4b8e-9a55-2f1f0f0b9d3c"])
def test_what_cannot_be_a_reference_is_none(typed):
    assert parse_reference(typed) is None
