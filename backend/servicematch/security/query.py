"""Control characters in a query parameter or a path parameter are refused on every API route, by name.

No API parameter may hold one (filters, search, cursors, tokens, the ids in paths), and PostgreSQL
refuses a NUL in a text comparison outright: checked here once, the refusal is the same 422 on both
databases instead of a 500 from whichever query reads the value first. Ids sent in a JSON body are
typed with servicematch.intake.schemas.text, which refuses them the same way.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from fastapi import FastAPI
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Receive, Scope, Send

from servicematch.errors import document_errors_as_json, error_body
from servicematch.inbound.validation import CONTROL_CHARACTERS_REFUSED, has_control_characters
from servicematch.intake.schemas import SINGLE_LINE_PATTERN

from .methods import SpecificRoutes


class ControlCharactersInParameters:
    def __init__(self, app: ASGIApp, *, routes: list[BaseRoute], prefix: str = "/api/") -> None:
        self.app, self.prefix = app, prefix
        self.specific_routes = SpecificRoutes(routes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(self.prefix):
            fields = {**self.refused_path_parameters(scope), **refused_parameters(scope.get("query_string", b""))}
            if fields:
                response = JSONResponse(error_body("The request is not valid.", fields), status_code=422)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def refused_path_parameters(self, scope: Scope) -> dict[str, str]:
        """{parameter name: message} for the path's parameters with a control character ("path"
        when no route names the part that holds it)."""
        if not has_control_characters(scope["path"]):
            return {}
        for route in self.specific_routes():
            match, child = route.matches(scope)
            if match is Match.NONE:
                continue
            named = {_printable(name): CONTROL_CHARACTERS_REFUSED
                     for name, value in child.get("path_params", {}).items()
                     if isinstance(value, str) and has_control_characters(value)}
            if named:
                return named
        return {"path": CONTROL_CHARACTERS_REFUSED}


def refused_parameters(query_string: bytes) -> dict[str, str]:
    """{parameter name: message} for each parameter whose name or value has a control character."""
    if not query_string:
        return {}
    pairs = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True, errors="replace")
    return {_printable(name): CONTROL_CHARACTERS_REFUSED for name, value in pairs
            if has_control_characters(name) or has_control_characters(value)}


def _printable(name: str) -> str:
    return name.encode("unicode_escape").decode("ascii")[:64]


def document_in_schema(app: FastAPI) -> None:
    """Give every string query and path parameter of the API without a pattern of its own the
    one-line pattern, so the OpenAPI schema says what ControlCharactersInParameters refuses; and
    document error answers as the JSON they are."""
    build = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            schema = build()
            for path, operations in schema.get("paths", {}).items():
                if not path.startswith("/api/"):
                    continue
                for operation in operations.values():
                    for parameter in operation.get("parameters", []):
                        if parameter.get("in") in ("query", "path"):
                            _add_pattern(parameter.get("schema", {}))
            document_errors_as_json(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi


def _add_pattern(schema: dict) -> None:
    for option in schema.get("anyOf", [schema]):
        if option.get("type") == "string" and "pattern" not in option and "format" not in option:
            option["pattern"] = SINGLE_LINE_PATTERN
