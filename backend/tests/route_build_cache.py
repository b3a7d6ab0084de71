"""What FastAPI builds for a route, built once per test process instead of once per app.

FastAPI 0.165 builds an included router's routes (each endpoint's dependency tree, its parameters'
and response's validators) when an app serves the router's first request, and keeps them on that
app. A web process builds them once. The tests build a new app for each test, so each test paid for
them again: 0.2-0.5 s of a simple API test went on building the routes its requests passed on the
way (a test of the buyer's settings: 47.8 s for 78 tests, 11.7 s with this cache; docs/benchmarks.md).

What is shared is what depends only on the endpoint and its declared dependencies, never on the app:
the dependency tree, the request body's and the response's fields, and the endpoints' signatures.
Each app still builds its own request handlers, which look up its `dependency_overrides` when a
request comes (backend/tests/test_route_build_cache.py checks that one app's overrides never reach
another's). Should FastAPI rename what this wraps, nothing is wrapped and the tests run as before,
only slower.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import routing
from fastapi.dependencies import utils as dependency_utils

# Each entry keeps the objects its key names by id() alive, so no id is reused while it is cached.
_dependants: dict[tuple, tuple[Any, list]] = {}
_body_fields: dict[tuple, tuple[Any, list]] = {}
_model_fields: dict[tuple, Any] = {}
_signatures: dict[Callable, Any] = {}


def _wrap(module: Any, name: str, make: Callable[[Callable], Callable]) -> None:
    built = getattr(module, name, None)
    if built is not None and not getattr(built, "_cached_per_process", False):
        wrapper = make(built)
        wrapper._cached_per_process = True
        setattr(module, name, wrapper)


def _dependant_cache(build: Callable) -> Callable:
    def cached(*, path: str, call: Callable, dependencies) -> Any:
        key = (path, call, tuple(id(depends) for depends in dependencies))
        try:
            hit = _dependants.get(key)
        except TypeError:  # an endpoint that is not hashable
            return build(path=path, call=call, dependencies=dependencies)
        if hit is None:
            hit = _dependants[key] = (build(path=path, call=call, dependencies=dependencies), list(dependencies))
        return hit[0]
    return cached


def _body_field_cache(build: Callable) -> Callable:
    def cached(*, body_params: list, name: str, embed_body_fields: bool) -> Any:
        key = (tuple(id(param) for param in body_params), name, embed_body_fields)
        if (hit := _body_fields.get(key)) is None:
            hit = _body_fields[key] = (build(body_params=body_params, name=name, embed_body_fields=embed_body_fields),
                                       list(body_params))
        return hit[0]
    return cached


def _model_field_cache(build: Callable) -> Callable:
    def cached(name: str, type_: Any, default: Any = dependency_utils.Undefined, field_info: Any = None,
               alias: str | None = None, mode: str = "validation") -> Any:
        if field_info is not None:  # a parameter's own field: built with its dependant, which is cached
            return build(name, type_, default, field_info, alias, mode)
        try:
            key = (name, type_, repr(default), alias, mode)
            hit = _model_fields.get(key)
        except TypeError:  # a response type that is not hashable
            return build(name, type_, default, field_info, alias, mode)
        if hit is None:
            hit = _model_fields[key] = build(name, type_, default, field_info, alias, mode)
        return hit
    return cached


def _signature_cache(read: Callable) -> Callable:
    def cached(call: Callable) -> Any:
        try:
            return _signatures[call]
        except KeyError:
            signature = _signatures[call] = read(call)
            return signature
        except TypeError:
            return read(call)
    return cached


def install() -> None:
    """Share what FastAPI builds for routes among every app of this process (idempotent)."""
    _wrap(routing, "_build_dependant_with_parameterless_dependencies", _dependant_cache)
    _wrap(routing, "_get_body_field", _body_field_cache)
    _wrap(routing, "create_model_field", _model_field_cache)
    _wrap(dependency_utils, "_get_signature", _signature_cache)


def cached_paths() -> list[str]:
    """The path of each dependency tree shared, once per endpoint and dependencies (for the cache's
    own test). Endpoints an app makes for itself (the site's catch-all, say) are new for each app."""
    return [path for path, _, _ in _dependants]
