"""Domain errors and the one handler that turns them into clear JSON answers."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException


class ServiceMatchError(Exception):
    """An error a client can act on: a status, a sentence, and optionally per-field messages."""

    status_code = 400

    def __init__(self, error: str, *, fields: dict[str, str] | None = None, status_code: int | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(error)
        self.error = error
        self.fields = fields or {}
        self.headers = headers
        if status_code is not None:
            self.status_code = status_code


class NotFound(ServiceMatchError):
    status_code = 404


class NothingHere(Exception):
    """A 404 with an empty body: another account's record, which must not even be confirmed to exist."""


class ErrorBody(BaseModel):
    """The one shape of every error answer, whichever handler produced it."""

    error: str
    fields: dict[str, str]


# Documented on every route (FastAPI(responses=...)): the handlers below can answer any route so.
COMMON_ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    400: {"model": ErrorBody, "description": "The request body could not be read"},
    404: {"model": ErrorBody, "description": "Not found"},
    422: {"model": ErrorBody, "description": "The request is not valid"},
}


# For routers behind a sign-in or a token: refused (401, 403) or throttled (429) the same way.
SIGNED_IN_ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    401: {"model": ErrorBody, "description": "Not signed in, or the credentials are wrong"},
    403: {"model": ErrorBody, "description": "Signed in without the right to do this"},
    429: {"model": ErrorBody, "description": "Too many attempts; Retry-After says when to come back"},
}


# For routes behind a per-address rate limit (servicematch.inbound.ratelimit).
RATE_LIMITED_RESPONSES: dict[int | str, dict[str, object]] = {
    429: {"model": ErrorBody, "description": "Too many requests from this address; Retry-After says when to "
                                             "come back"},
}


def error_body(error: str, fields: dict[str, str] | None = None) -> dict[str, object]:
    return {"error": error, "fields": fields or {}}


def _field_name(location: tuple) -> str:
    # ("body", "consumer", "email") -> "consumer.email"; the leading "body"/"query" says nothing useful.
    parts = [str(p) for p in location if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def validation_fields(problems) -> dict[str, str]:
    """Pydantic's errors as {"consumer.email": "message"}, the first message of each field."""
    fields: dict[str, str] = {}
    for problem in problems:
        fields.setdefault(_field_name(tuple(problem.get("loc", ()))), problem.get("msg", "Invalid value"))
    return fields


def document_errors_as_json(schema: dict) -> None:
    """Say in the OpenAPI schema that error answers are JSON (the handlers below) on routes that
    answer something else when they succeed: FastAPI gives them the route's media type."""
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                content = response.get("content")
                if status[:1] in ("4", "5") and content and "application/json" not in content:
                    response["content"] = {"application/json": next(iter(content.values()))}


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServiceMatchError)
    async def _domain_error(_request: Request, exc: ServiceMatchError) -> JSONResponse:
        return JSONResponse(error_body(exc.error, exc.fields), status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(NothingHere)
    async def _nothing_here(_request: Request, _exc: NothingHere) -> Response:
        return Response(status_code=404)

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(error_body("The request is not valid.", validation_fields(exc.errors())),
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(error_body(str(exc.detail)), status_code=exc.status_code, headers=exc.headers)
