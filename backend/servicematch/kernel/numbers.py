"""Numbers in request bodies.

JSON's true and false are not numbers, though pydantic's lax mode takes them as 1 and 0: a review
sent with `"stars": true` would be saved as one star, and the OpenAPI schema, which says integer or
number, would not describe what the server accepts.

A whole number is stored in (or compared with) a 32-bit INTEGER column: PostgreSQL refuses a
larger one and SQLite's driver one past 64 bits, each as a database error, a 500 that could leave
the request's connection unusable. So every whole number a request carries is bounded here, and the
bounds are in the OpenAPI schema. And it is a JSON number, as the schema and the docs say: "640" is
a string, refused where an integer belongs (lax mode took it as 640). 640.0 is the integer 640 to
JSON Schema, and to pydantic's lax mode, so it passes; 640.5 does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BeforeValidator, GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic_core import PydanticCustomError, PydanticKnownError, core_schema

NOT_A_BOOLEAN = "Input should be a number, not true or false"
# The largest value a 32-bit INTEGER column holds.
INTEGER_MAX = 2**31 - 1


def _not_a_boolean(value: Any) -> Any:
    if isinstance(value, bool):
        raise PydanticCustomError("number_not_boolean", NOT_A_BOOLEAN)
    return value


def _a_json_integer(value: Any) -> Any:
    """Not true or false, and not a string of digits: what is left is judged as an integer."""
    if isinstance(value, str | bytes | bytearray):
        raise PydanticKnownError("int_type")
    return _not_a_boolean(value)


@dataclass(frozen=True)
class Within:
    """A whole number's range, checked after the type and written into the schema.

    Not Field(ge=, le=): pydantic keeps one constraint of each kind, so a field's own
    `Field(le=100)` would replace the type's bound or be replaced by it, depending on where each
    stands; and on an optional field it would reach the schema as "le" instead of "maximum".
    """

    ge: int
    le: int

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self._check, handler(source))

    def _check(self, value: int) -> int:
        if value < self.ge:
            raise PydanticKnownError("greater_than_equal", {"ge": self.ge})
        if value > self.le:
            raise PydanticKnownError("less_than_equal", {"le": self.le})
        return value

    def __get_pydantic_json_schema__(self, schema: core_schema.CoreSchema,
                                     handler: GetJsonSchemaHandler) -> dict[str, Any]:
        written = handler(schema)
        # A field's own bounds may be narrower (credit_cap_percent's 0..100): the narrower one holds.
        written["minimum"] = max(written.get("minimum", self.ge), self.ge)
        written["maximum"] = min(written.get("maximum", self.le), self.le)
        return written


def whole_number(*, ge: int = 0, le: int = INTEGER_MAX) -> Any:
    """A whole number from `ge` to `le`: the natural range of what it counts, within the column."""
    if not 0 <= ge <= le <= INTEGER_MAX:
        raise ValueError(f"a whole number's range lies within 0..{INTEGER_MAX}, not {ge}..{le}")
    return Annotated[int, Within(ge, le), BeforeValidator(_a_json_integer)]


WholeNumber = whole_number()
Number = Annotated[float, BeforeValidator(_not_a_boolean)]
