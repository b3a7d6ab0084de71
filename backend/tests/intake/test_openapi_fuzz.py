"""Schemathesis against /openapi.json, in process: no 5xx, and every answer matches the schema."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

# Enough examples per operation and mode to find crashes, few enough for the suite to stay quick.
EXAMPLES = 30
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def operations(app) -> list:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    return [result.ok() for result in schema.get_all_operations()]


def test_the_schema_covers_the_intake_api(app):
    labels = {operation.label for operation in operations(app)}
    assert {"POST /api/validate", "POST /api/submit-form", "POST /api/call-submit"} <= labels


# Each generation mode: conforming requests, then requests built to break the schema.
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_operation_answers_within_its_schema(app, mode):
    for operation in operations(app):

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
        def call(case) -> None:
            case.call_and_validate(checks=CHECKS)

        try:
            call()
        except Unsatisfiable:
            # Nothing in this operation can be made invalid (no body, only free-form strings).
            assert mode is GenerationMode.NEGATIVE, operation.label
