"""The base of the console's answers as the OpenAPI schema names them (and the browser's types,
frontend/src/lib/api-schema.ts, follow): each answer is built as it always was, then checked
against its shape on the way out.

Every key is required (null where it may be) and no other is allowed, so a key added to or left out
of an answer fails loudly (tests/console/test_response_models.py) instead of appearing or
disappearing unseen. A number that may be whole or not is `int | float`, so neither is rewritten.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Shape(BaseModel):
    model_config = ConfigDict(extra="forbid")
