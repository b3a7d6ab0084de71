"""POST /api/validate: the email and phone rules of spec section 5, and refusals of bad requests."""

from __future__ import annotations

import pytest


def validate(client, kind: str, value: str) -> dict:
    response = client.post("/api/validate", json={"type": kind, "value": value})
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize("value", ["maria@example.com", "first.last+tag@mail.example.co", " Maria@Example.COM "])
def test_valid_emails_pass(client, value):
    assert validate(client, "email", value) == {"isValid": True, "error": None}


@pytest.mark.parametrize("value", [
    "", "maria", "maria@example", "maria@example.c", "maria@@example.com", "mária@example.com",
    # These pass the spec's pattern; the full syntax check catches them.
    "maria..garcia@example.com", ".maria@example.com", "maria@-example.com",
])
def test_invalid_emails_are_refused_with_the_spec_message(client, value):
    assert validate(client, "email", value) == {"isValid": False, "error": "Invalid email format"}


@pytest.mark.parametrize("value", ["5125550142", "(512) 555-0142", "512.555.0142", "+1 512 555 0142", "15125550142"])
def test_valid_us_phone_numbers_pass(client, value):
    assert validate(client, "phone", value) == {"isValid": True, "error": None}


@pytest.mark.parametrize("value", ["", "512555014", "(512) 555-01"])
def test_short_phone_numbers_get_the_length_message(client, value):
    assert validate(client, "phone", value) == {
        "isValid": False, "error": "Phone number must be at least 10 digits"
    }


@pytest.mark.parametrize("value", [
    "25125550142",  # 11 digits without the leading 1
    "512555014299",  # 12 digits
    "1235550142",  # area code cannot start with 1
    "5120550142",  # exchange cannot start with 0
    "5125550142x",  # not only formatting
    "4165550142",  # a Canadian number: +1 but not US
])
def test_invalid_phone_numbers_get_the_invalid_message(client, value):
    assert validate(client, "phone", value) == {"isValid": False, "error": "Invalid phone number"}


def test_unknown_type_is_a_422_naming_the_field(client):
    response = client.post("/api/validate", json={"type": "fax", "value": "5125550142"})
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "The request is not valid."
    assert "email" in body["fields"]["type"] and "phone" in body["fields"]["type"]


def test_missing_value_is_a_422(client):
    response = client.post("/api/validate", json={"type": "email"})
    assert response.status_code == 422
    assert response.json()["fields"] == {"value": "Field required"}


@pytest.mark.parametrize("body", ['{"type": "email", "value": ', "[]", '"email"', '{"type": "email", "value": 5}'])
def test_malformed_or_mistyped_bodies_are_4xx_json(client, body):
    response = client.post("/api/validate", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert set(response.json()) == {"error", "fields"}


def test_unknown_keys_are_refused(client):
    response = client.post("/api/validate", json={"type": "email", "value": "a@example.com", "extra": 1})
    assert response.status_code == 422
    assert "extra" in response.json()["fields"]


def test_bodies_over_64_kb_are_refused_before_parsing(client):
    response = client.post("/api/validate", json={"type": "email", "value": "a" * 70_000})
    assert response.status_code == 413
    assert response.json() == {"error": "The request body is too large.", "fields": {}}


def test_a_streamed_body_without_length_is_capped_too(client):
    chunks = (b"x" * 16_384 for _ in range(5))
    response = client.post("/api/validate", content=chunks, headers={"Content-Type": "application/json"})
    assert response.status_code == 413
