"""Offline suggestions ranked by what the visitor typed (issue 10, defect 5)."""

from __future__ import annotations

from servicematch.address import service
from servicematch.address.directory import load_directory


def suggest(query: str, limit: int = 6) -> list[dict]:
    found = service.suggest(directory=load_directory(), query=query, limit=limit)
    return [suggestion.model_dump() for suggestion in found]


def test_a_city_without_a_state_puts_the_largest_place_first():
    suggestions = suggest("500 Congress Ave Austin")
    assert suggestions[0]["state"] == "TX"
    assert suggestions[0]["label"] == "500 Congress Ave, Austin, TX"
    # Other Austins still follow, one each, so a visitor elsewhere finds theirs.
    assert {s["state"] for s in suggestions} >= {"TX", "MN"}


def test_one_street_is_never_offered_with_several_zips():
    for query in ("500 Congress Ave, Austin, TX", "1600 Pennsylvania Ave NW, Washington", "12 Main St Springfield"):
        suggestions = suggest(query, limit=20)
        places = [(s["address1"], s["city"], s["state"]) for s in suggestions]
        assert suggestions and len(places) == len(set(places)), query


def test_the_typed_state_narrows_the_city():
    suggestions = suggest("500 Congress Ave Austin TX")
    # Austin has dozens of ZIPs and the data cannot tell which one the street is in: none is guessed.
    assert suggestions == [{"label": "500 Congress Ave, Austin, TX", "address1": "500 Congress Ave",
                            "city": "Austin", "state": "TX", "zip": "", "typed": "500 Congress Ave",
                            "found": "Austin, TX"}]


def test_washington_dc_is_a_place():
    suggestions = suggest("1600 Pennsylvania Ave NW, Washington, DC")
    assert suggestions[0]["label"] == "1600 Pennsylvania Ave NW, Washington, DC"
    assert (suggestions[0]["city"], suggestions[0]["address1"]) == ("Washington", "1600 Pennsylvania Ave NW")
    exact = suggest("1600 Pennsylvania Ave NW, Washington, DC 20500")
    assert [s["label"] for s in exact] == ["1600 Pennsylvania Ave NW, Washington, DC 20500"]


def test_a_zip_the_visitor_typed_keeps_the_street_number():
    suggestions = suggest("123 Main St 78701")
    assert [s["label"] for s in suggestions] == ["123 Main St, Austin, TX 78701"]


def test_a_street_alone_names_no_place():
    assert suggest("123 Main St") == []
