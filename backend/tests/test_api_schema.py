"""The API's OpenAPI schema (what `python -m servicematch.api_schema` prints) bounds every integer a
request can carry: a number past its column was a 500 that could leave the database connection
broken, so a new request field or query parameter without a maximum fails here."""

from __future__ import annotations

from collections.abc import Iterator

REQUEST_PARAMETERS = ("query", "path", "header", "cookie")


def _integers(schema: dict, where: str, components: dict, seen: frozenset[str] = frozenset()) -> Iterator[
        tuple[str, dict]]:
    """(where, schema) of each integer in a schema, through references, unions, objects and lists."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            yield from _integers(components[name], where, components, seen | {name})
        return
    kinds = schema.get("type")
    if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds):
        yield where, schema
    for union in ("anyOf", "oneOf", "allOf"):
        for option in schema.get(union, []):
            yield from _integers(option, where, components, seen)
    for name, field in schema.get("properties", {}).items():
        yield from _integers(field, f"{where}.{name}", components, seen)
    for nested in ("items", "additionalProperties"):
        if isinstance(schema.get(nested), dict):
            yield from _integers(schema[nested], f"{where}[]", components, seen)


def request_integers(openapi: dict) -> dict[str, dict]:
    """"METHOD /path body.field" or "METHOD /path query:name" -> the integer's schema, for every
    request body and parameter of every operation."""
    components = openapi.get("components", {}).get("schemas", {})
    found: dict[str, dict] = {}
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            route = f"{method.upper()} {path}"
            for parameter in operation.get("parameters", []):
                if parameter["in"] in REQUEST_PARAMETERS:
                    where = f"{route} {parameter['in']}:{parameter['name']}"
                    found.update(_integers(parameter.get("schema", {}), where, components))
            for media_type, content in operation.get("requestBody", {}).get("content", {}).items():
                found.update(_integers(content.get("schema", {}), f"{route} body[{media_type}]", components))
    return found


def _bounded(schema: dict) -> bool:
    if "const" in schema or "enum" in schema:
        return True
    return (("maximum" in schema or "exclusiveMaximum" in schema)
            and ("minimum" in schema or "exclusiveMinimum" in schema))


def test_every_integer_a_request_can_carry_has_a_minimum_and_a_maximum(app):
    integers = request_integers(app.openapi())
    # The walk reaches request bodies, their nested models and query parameters alike.
    for known in ("POST /api/console/providers body[application/json].dailyCap",
                  "POST /api/admin/providers body[application/json].daily_cap",
                  "PATCH /api/pro/providers/{provider_id} body[application/json].dailyCap",
                  "POST /api/submit-form body[application/json].cid",
                  "GET /api/console/leads query:limit"):
        assert known in integers, sorted(integers)
    unbounded = sorted(where for where, schema in integers.items() if not _bounded(schema))
    assert unbounded == []


def test_no_integer_bound_is_past_a_32_bit_integer_column(app):
    too_wide = sorted(where for where, schema in request_integers(app.openapi()).items()
                      if schema.get("maximum", 0) > 2**31 - 1 or schema.get("minimum", 0) < -(2**31))
    assert too_wide == []


def test_an_integer_without_a_maximum_is_found():
    openapi = {"paths": {"/things": {"post": {
        "parameters": [{"in": "query", "name": "page", "schema": {"type": "integer", "minimum": 1}}],
        "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}}},
        "components": {"schemas": {"Thing": {"properties": {
            "count": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 9}, {"type": "null"}]},
            "sizes": {"type": "array", "items": {"type": "integer"}}}}}}}
    integers = request_integers(openapi)
    assert sorted(where for where, schema in integers.items() if not _bounded(schema)) == [
        "POST /things body[application/json].sizes[]", "POST /things query:page"]
    assert _bounded(integers["POST /things body[application/json].count"])
