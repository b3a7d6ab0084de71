"""Numbers in request bodies. JSON's true and false are not numbers, though pydantic's lax mode
takes them as 1 and 0: a review sent with `"stars": true` would be saved as one star, and the
OpenAPI schema, which says integer or number, would not describe what the server accepts."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

NOT_A_BOOLEAN = "Input should be a number, not true or false"


def _not_a_boolean(value: Any) -> Any:
    if isinstance(value, bool):
        raise PydanticCustomError("number_not_boolean", NOT_A_BOOLEAN)
    return value


WholeNumber = Annotated[int, BeforeValidator(_not_a_boolean)]
Number = Annotated[float, BeforeValidator(_not_a_boolean)]
