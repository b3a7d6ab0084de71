"""Reading partly typed addresses: street line, city, state and ZIP."""

from __future__ import annotations

import pytest

from servicematch.address.directory import city_key
from servicematch.address.parsing import AddressQuery, parse_query, state_code


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("500 Congress Ave, Austin, TX 78701",
         AddressQuery(street="500 Congress Ave", city="Austin", state="TX", zip="78701")),
        ("123 N Main St, Salt Lake City, Utah 84101",
         AddressQuery(street="123 N Main St", city="Salt Lake City", state="UT", zip="84101")),
        ("12 Main St Apt 4, Springfield, IL", AddressQuery(street="12 Main St", city="Springfield", state="IL")),
        ("500 Congress Ave, Aus", AddressQuery(street="500 Congress Ave", city="Aus")),
        ("New York", AddressQuery(city="New York")),
        ("New York NY", AddressQuery(city="New York", state="NY")),
        ("San Fr", AddressQuery(city="San Fr")),
        ("78701", AddressQuery(zip="78701")),
        ("787", AddressQuery(zip_prefix="787")),
    ],
)
def test_parse_query(text, expected):
    assert parse_query(text) == expected


def test_state_code_reads_codes_and_names_in_any_case():
    assert state_code("tx") == "TX"
    assert state_code("north  carolina") == "NC"
    assert state_code("PR") is None


def test_city_key_spells_out_short_forms():
    assert city_key("St. Louis") == city_key("Saint Louis") == "SAINT LOUIS"
    assert city_key("Ft Worth") == "FORT WORTH"
