"""The offline address API answers from the bundled ZIP data, and refuses bad input clearly."""

from __future__ import annotations


def test_full_address_suggests_the_exact_zip(client):
    response = client.get("/api/address/suggest", params={"q": "500 Congress Ave, Austin, TX 78701"})
    assert response.status_code == 200
    assert response.json()["suggestions"] == [
        {
            "label": "500 Congress Ave, Austin, TX 78701",
            "address1": "500 Congress Ave",
            "city": "Austin",
            "state": "TX",
            "zip": "78701",
            "typed": "500 Congress Ave",
            "found": "Austin, TX 78701",
        }
    ]


def test_a_street_in_a_city_of_many_zips_is_offered_once_without_a_zip(client):
    suggestions = client.get(
        "/api/address/suggest", params={"q": "12 Main St, Springfield, IL", "limit": 5}
    ).json()["suggestions"]
    assert suggestions == [{"label": "12 Main St, Springfield, IL", "address1": "12 Main St",
                            "city": "Springfield", "state": "IL", "zip": "",
                            "typed": "12 Main St", "found": "Springfield, IL"}]


def test_the_typed_street_is_told_apart_from_the_places_found(client):
    """Every Springfield is a place the ZIP data knows; the street is only what was typed."""
    suggestions = client.get("/api/address/suggest", params={"q": "123 Main St, Springfield", "limit": 6}).json()[
        "suggestions"]
    assert len(suggestions) > 1
    assert {s["typed"] for s in suggestions} == {"123 Main St"}
    assert all(s["found"].startswith("Springfield, ") and "Main St" not in s["found"] for s in suggestions)


def test_a_place_typed_without_a_street_has_nothing_typed(client):
    suggestions = client.get("/api/address/suggest", params={"q": "78701"}).json()["suggestions"]
    assert suggestions[0]["typed"] == "" and suggestions[0]["found"] == "Austin, TX 78701"


def test_a_city_of_one_zip_is_completed_with_it(client):
    suggestions = client.get("/api/address/suggest", params={"q": "5 Elm St, Marfa, TX"}).json()["suggestions"]
    assert [s["label"] for s in suggestions] == ["5 Elm St, Marfa, TX 79843"]


def test_city_alone_lists_exact_names_before_longer_ones(client):
    suggestions = client.get("/api/address/suggest", params={"q": "Austin", "limit": 20}).json()["suggestions"]
    cities = [s["city"] for s in suggestions]
    assert cities[0] == "Austin"
    assert all(city.startswith("Austin") for city in cities)
    assert all(s["address1"] == "" for s in suggestions)


def test_short_forms_of_city_names_are_spelled_out(client):
    suggestions = client.get("/api/address/suggest", params={"q": "st louis mo"}).json()["suggestions"]
    assert suggestions and all((s["city"], s["state"]) == ("Saint Louis", "MO") for s in suggestions)


def test_zip_prefix_suggests_zips_in_order(client):
    suggestions = client.get("/api/address/suggest", params={"q": "9021"}).json()["suggestions"]
    zips = [s["zip"] for s in suggestions]
    assert zips == sorted(zips) and zips and all(z.startswith("9021") for z in zips)
    assert "90210" in zips


def test_street_alone_suggests_nothing(client):
    assert client.get("/api/address/suggest", params={"q": "500 Congress Ave"}).json() == {"suggestions": []}


def test_territories_are_left_out(client):
    # Puerto Rico ZIPs exist in the data, but the lead form's state list has the 50 states only.
    assert client.get("/api/address/suggest", params={"q": "00901"}).json() == {"suggestions": []}


def test_too_short_query_is_a_clear_error(client):
    response = client.get("/api/address/suggest", params={"q": "a"})
    assert response.status_code == 422
    body = response.json()
    assert body["error"] and "q" in body["fields"]


def test_zip_lookup(client):
    response = client.get("/api/address/zip/10001")
    assert response.status_code == 200
    assert response.json() == {"zip": "10001", "city": "New York", "state": "NY", "county": "New York County"}
    assert "max-age" in response.headers["cache-control"]


def test_unknown_zip_is_404_with_a_message(client):
    response = client.get("/api/address/zip/00000")
    assert response.status_code == 404
    assert response.json() == {"error": "Unknown ZIP code", "fields": {"zip": "No US ZIP code 00000 is known."}}


def test_malformed_zip_is_422(client):
    response = client.get("/api/address/zip/7870")
    assert response.status_code == 422
    assert "zip_code" in response.json()["fields"]
