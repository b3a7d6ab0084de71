"""Request bodies' numbers refuse JSON's true and false (pydantic's lax mode reads them as 1 and 0)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from servicematch.delivery.schemas import ProviderCreate
from servicematch.kernel.numbers import NOT_A_BOOLEAN, Number, WholeNumber


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
