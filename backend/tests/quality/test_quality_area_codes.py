"""The area-code table is phonenumbers' own geocoding, as installed: a newer phonenumbers with new
area codes fails here until `python -m servicematch.quality.area_codes` writes the table again."""

from __future__ import annotations

import phonenumbers
from phonenumbers import geocoder

from servicematch.quality.area_codes import AREA_CODE_STATES, US_STATES, build_table


def test_the_table_is_the_installed_geocoding_data():
    assert build_table() == AREA_CODE_STATES


def test_it_agrees_with_the_geocoder_on_sample_numbers():
    names = {name: code for code, name in US_STATES.items()}
    for area_code in ("512", "415", "212", "907", "202", "305", "617"):
        number = phonenumbers.PhoneNumber(country_code=1, national_number=int(f"{area_code}4783921"))
        description = geocoder.description_for_number(number, "en")
        state = description.rsplit(", ", 1)[-1] if ", " in description else names.get(description)
        assert AREA_CODE_STATES[area_code] == {"Washington D.C.": "DC"}.get(description, state), description


def test_every_state_and_dc_has_an_area_code():
    assert set(AREA_CODE_STATES.values()) == set(US_STATES)
