"""Numbers the console sends: each fits the column that stores it, or is a 422 naming the field, and
the database connection is as good afterwards (a number past the column was a 500 that could leave
it broken). Strings where a number belongs are refused, as the schema says."""

from __future__ import annotations

import pytest

# The largest value of a 32-bit INTEGER column, what PostgreSQL stores these numbers in.
INTEGER_MAX = 2_147_483_647
NEW = {"name": "Cool Air", "email": "dispatch@coolair.example", "services": ["hvac"], "states": ["TX"]}
BUYER = {"name": "Acme Home Quotes", "postUrl": "https://buyer.example/leads", "price": 25, "services": ["hvac"],
         "states": ["TX"]}
# Past SQLite's 64-bit integers, and past PostgreSQL's 32-bit INTEGER: both were 500s.
TOO_BIG = [2**64, INTEGER_MAX + 1]


@pytest.mark.parametrize("value", TOO_BIG)
@pytest.mark.parametrize("field", ["dailyCap", "leadPriceCents", "creditCapPercent"])
def test_a_provider_number_past_its_column_is_a_422_naming_it(admin, field, value):
    answer = admin.post("/api/console/providers", json={**NEW, field: value})
    assert answer.status_code == 422, answer.text
    assert list(answer.json()["fields"]) == [field]
    assert admin.get("/api/console/providers").json()["items"] == []
    assert admin.post("/api/console/providers", json={**NEW, field: 5}).status_code == 201


@pytest.mark.parametrize("value", TOO_BIG)
@pytest.mark.parametrize("field", ["dailyCap", "leadPriceCents", "creditCapPercent"])
def test_a_provider_change_past_a_column_is_a_422_naming_it_and_changes_nothing(admin, field, value):
    provider = admin.post("/api/console/providers", json={**NEW, "dailyCap": 20}).json()
    answer = admin.patch(f"/api/console/providers/{provider['id']}", json={field: value})
    assert answer.status_code == 422, answer.text
    assert list(answer.json()["fields"]) == [field]
    (listed,) = admin.get("/api/console/providers").json()["items"]
    assert listed == provider
    changed = admin.patch(f"/api/console/providers/{provider['id']}", json={"dailyCap": 7})
    assert changed.status_code == 200 and changed.json()["dailyCap"] == 7


def test_the_largest_daily_cap_a_column_holds_is_stored(admin):
    created = admin.post("/api/console/providers", json={**NEW, "dailyCap": INTEGER_MAX})
    assert created.status_code == 201, created.text
    assert admin.get("/api/console/providers").json()["items"][0]["dailyCap"] == INTEGER_MAX


@pytest.mark.parametrize("value", TOO_BIG)
def test_a_buyer_daily_cap_past_its_column_is_a_422_naming_it(admin, value):
    answer = admin.post("/api/console/buyers", json={**BUYER, "dailyCap": value})
    assert answer.status_code == 422, answer.text
    assert list(answer.json()["fields"]) == ["dailyCap"]
    assert admin.post("/api/console/buyers", json={**BUYER, "dailyCap": 10}).status_code == 201


@pytest.mark.parametrize(("field", "value"), [("dailyCap", "20"), ("creditCapPercent", "20"),
                                              ("leadPriceCents", "4500"), ("dailyCap", 2.5)])
def test_a_number_sent_as_a_string_or_a_fraction_is_refused(admin, field, value):
    answer = admin.post("/api/console/providers", json={**NEW, field: value})
    assert answer.status_code == 422, answer.text
    assert list(answer.json()["fields"]) == [field]
    assert "integer" in answer.json()["fields"][field]
