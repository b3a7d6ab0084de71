"""servicematch.deps is the only code that touches `app.state`; routes ask for parts through it.

Every other module installs its parts with `install_part`, reads them while composing with
`part_of`, and hands them to routes as typed dependencies (`app_part`), which tests can override
with `app.dependency_overrides`.
"""

from __future__ import annotations

import ast
from pathlib import Path

from servicematch.deps import app_part

PACKAGE = Path(__file__).resolve().parents[1] / "servicematch"
DEPS = PACKAGE / "deps.py"
ATTRIBUTE_FUNCTIONS = {"getattr", "setattr", "hasattr", "delattr"}


def _is_app(node: ast.expr) -> bool:
    """An expression that names the app: `app`, `application`, `x_app`, `request.app`, `scope["app"]`."""
    if isinstance(node, ast.Name):
        return node.id in ("app", "application") or node.id.endswith("_app")
    if isinstance(node, ast.Attribute):
        return node.attr == "app"
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "app"
    return False


def _touches_state(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr == "state" and _is_app(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ATTRIBUTE_FUNCTIONS:
        return (len(node.args) >= 2 and _is_app(node.args[0]) and isinstance(node.args[1], ast.Constant)
                and node.args[1].value == "state")
    return False


def state_touches(source: str) -> list[int]:
    """Lines where the source reads or writes `.state` of an app (directly or through getattr & co.)."""
    return sorted(node.lineno for node in ast.walk(ast.parse(source)) if _touches_state(node))


def test_only_deps_touches_app_state():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert DEPS in modules and len(modules) > 50
    touches = {str(path.relative_to(PACKAGE)): found for path in modules if path != DEPS
               if (found := state_touches(path.read_text(encoding="utf-8")))}
    assert touches == {}, f"read or write app parts through servicematch.deps, not app.state: {touches}"
    assert state_touches(DEPS.read_text(encoding="utf-8"))  # the checker still sees the one that does


def test_the_check_catches_a_planted_violation():
    planted = """
def limiter(request):
    return request.app.state.submit_limiter

def install(app, store):
    app.state.store = store
    setattr(app.state, "other", store)
    return getattr(app, "state")

async def middleware(scope):
    return scope["app"].state.settings
"""
    assert state_touches(planted) == [3, 6, 7, 8, 11]
    # A lead's state, a row's state and the request's own state are none of the app's.
    assert state_touches("lead.state = 'CA'\nrows.c.state\nrequest.state.started = 1\nstate = app_state\n") == []


def test_one_dependency_per_part_name():
    assert app_part("catalog") is app_part("catalog")
    assert app_part("catalog") is not app_part("settings")
    assert app_part("settings").__name__ == "get_settings"


def test_a_part_can_be_overridden_for_routes(app, client, settings):
    assert client.get("/api/catalog").json()["config"]["brandName"] == settings.brand_name
    renamed = settings.model_copy(update={"brand_name": "Overridden Home Services"})

    async def other_settings() -> object:
        return renamed

    app.dependency_overrides[app_part("settings")] = other_settings
    try:
        assert client.get("/api/catalog").json()["config"]["brandName"] == "Overridden Home Services"
    finally:
        app.dependency_overrides.clear()
    assert client.get("/api/catalog").json()["config"]["brandName"] == settings.brand_name
