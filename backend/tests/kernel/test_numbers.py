"""Request bodies' numbers refuse JSON's true and false (pydantic's lax mode reads them as 1 and 0);
whole numbers fit a 32-bit INTEGER column and are strict (a string is not a number)."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel, Field, ValidationError

from servicematch.delivery.schemas import ProviderCreate
from servicematch.kernel.numbers import (
    INTEGER_MAX,
    NOT_A_BOOLEAN,
    Number,
    WholeNumber,
    whole_number,
)


class Body(BaseModel):
    count: WholeNumber
    miles: Number | None = None


@pytest.mark.parametrize("value", [True, False])
def test_true_and_false_are_not_numbers(value):
    with pytest.raises(ValidationError) as whole:
        Body.model_validate_json(f'{{"count": {str(value).lower()}}}')
    assert whole.value.errors()[0]["msg"] == NOT_A_BOOLEAN
    with pytest.raises(ValidationError) as number:
        Body.model_validate({"count": 1, "miles": value})
    assert NOT_A_BOOLEAN in str(number.value)


def test_numbers_and_null_still_pass():
    assert Body.model_validate({"count": 3, "miles": 12}).model_dump() == {"count": 3, "miles": 12.0}
    assert Body.model_validate_json('{"count": 3, "miles": null}').miles is None


def test_a_provider_daily_cap_of_true_is_refused():
    with pytest.raises(ValidationError, match="daily_cap"):
        ProviderCreate.model_validate({"name": "Cool Air", "email": "ana@coolair.example", "daily_cap": True})


class Caps(BaseModel):
    """The shapes request bodies use: optional or not, with or without the field's own bounds."""

    plain: WholeNumber = 0
    narrower: WholeNumber = Field(default=20, ge=0, le=100)
    optional: WholeNumber | None = Field(default=None, ge=1)
    ranged: whole_number(ge=1, le=10_000) | None = None


@pytest.mark.parametrize("field", ["plain", "narrower", "optional", "ranged"])
@pytest.mark.parametrize("value", [INTEGER_MAX + 1, 2**64, -1, -(2**63) - 1])
def test_a_whole_number_past_a_32_bit_column_is_refused(field, value):
    with pytest.raises(ValidationError) as refused:
        Caps.model_validate({field: value})
    assert [problem["loc"] for problem in refused.value.errors()] == [(field,)]


def test_the_largest_value_a_32_bit_column_holds_passes():
    assert INTEGER_MAX == 2_147_483_647
    assert Caps.model_validate({"plain": INTEGER_MAX, "optional": INTEGER_MAX}).optional == INTEGER_MAX


def test_a_fields_own_narrower_bounds_still_hold():
    # pydantic keeps one bound of each kind: were the column's a Field(le=...), it could replace these.
    for values in ({"narrower": 101}, {"optional": 0}, {"ranged": 10_001}, {"ranged": 0}):
        with pytest.raises(ValidationError):
            Caps.model_validate(values)
    with pytest.raises(ValidationError, match="credit_cap_percent"):
        ProviderCreate.model_validate({"name": "Cool Air", "contact_email": "ana@coolair.example",
                                       "services": ["hvac"], "states": ["TX"], "credit_cap_percent": 101})


@pytest.mark.parametrize("value", ["640", "1e3", " 640", b"640", 640.5])
def test_a_string_or_a_fraction_is_not_a_whole_number(value):
    with pytest.raises(ValidationError, match="valid integer"):
        Caps.model_validate({"plain": value})
    if not isinstance(value, bytes):
        with pytest.raises(ValidationError, match="valid integer"):
            Caps.model_validate_json(json.dumps({"ranged": value}))


def test_a_number_json_schema_calls_an_integer_is_one():
    # 640.0 is an integer to JSON Schema, so a client that follows the schema may send it.
    assert Caps.model_validate_json('{"plain": 640.0, "ranged": 1e3}').model_dump() == {
        "plain": 640, "narrower": 20, "optional": None, "ranged": 1000}


def test_the_schema_states_each_range_as_a_minimum_and_a_maximum():
    properties = Caps.model_json_schema()["properties"]
    assert (properties["plain"]["minimum"], properties["plain"]["maximum"]) == (0, INTEGER_MAX)
    assert (properties["narrower"]["minimum"], properties["narrower"]["maximum"]) == (0, 100)
    ranged = properties["ranged"]["anyOf"][0]
    assert (ranged["type"], ranged["minimum"], ranged["maximum"]) == ("integer", 1, 10_000)
    assert properties["optional"]["anyOf"][0]["maximum"] == INTEGER_MAX


def test_a_range_past_the_column_cannot_be_declared():
    for bounds in ({"le": INTEGER_MAX + 1}, {"ge": -1}, {"ge": 5, "le": 4}):
        with pytest.raises(ValueError, match="within 0"):
            whole_number(**bounds)
