"""HTTP methods: HEAD answers as GET without a body; a known path with another method is 405."""

from __future__ import annotations

import json
from functools import lru_cache

from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from servicematch.errors import error_body

METHOD_NOT_ALLOWED = "Method Not Allowed"


class HeadAsGet:
    """Run a HEAD request as its GET and send the same status and headers with no body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        body_sent = False

        async def send_headers_only(message: Message) -> None:
            nonlocal body_sent
            if message["type"] != "http.response.body":
                await send(message)
            elif not body_sent:
                body_sent = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)


def leaf_routes(routes: list[BaseRoute]) -> list[BaseRoute]:
    """The routes themselves: FastAPI keeps an included router as one entry wrapping its own list."""
    leaves: list[BaseRoute] = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        leaves.extend(leaf_routes(inner.routes) if inner is not None else [route])
    return leaves


def is_fallback(route: BaseRoute) -> bool:
    """Catch-alls ("/{path:path}", "/api/{rest:path}") answer any path; a path one of the real
    routes knows is judged by that route's methods, not theirs. True also for a router holding one."""
    return any(getattr(leaf, "path", "").endswith(":path}") for leaf in leaf_routes([route]))


class SpecificRoutes:
    """The app's routes but its catch-alls, for middleware that must know which route a path names."""

    def __init__(self, routes: list[BaseRoute]) -> None:
        self._app_routes = routes
        self._specific: list[BaseRoute] | None = None

    def __call__(self) -> list[BaseRoute]:
        # Read at the first request, once every router has been included.
        if self._specific is None:
            self._specific = [route for route in leaf_routes(self._app_routes) if not is_fallback(route)]
        return self._specific


# Distinct (method, path) answers kept: a page or the submit endpoint is looked up once, not at
# every request (matching a page's path against the 92 API routes took about 150 us). Longer paths
# are matched each time, so made-up paths cannot make the kept answers large.
KNOWN_ANSWERS = 4096
KEPT_PATH_LENGTH = 256


class MethodNotAllowed:
    """405 with Allow when a route knows the path but not the method (instead of a catch-all's 404)."""

    def __init__(self, app: ASGIApp, *, routes: list[BaseRoute]) -> None:
        self.app = app
        self.specific_routes = SpecificRoutes(routes)
        # Whether routes match depends only on the method and the path (below the root path).
        self._allowed_for = lru_cache(maxsize=KNOWN_ANSWERS)(self._allowed_for_path)

    def allowed_methods(self, scope: Scope) -> frozenset[str] | None:
        """None when some route takes this request; else the methods the path's routes take."""
        method, root_path, path = scope["method"], scope.get("root_path", ""), scope["path"]
        if len(path) > KEPT_PATH_LENGTH:
            return self._allowed_for_path(method, root_path, path)
        return self._allowed_for(method, root_path, path)

    def _allowed_for_path(self, method: str, root_path: str, path: str) -> frozenset[str] | None:
        scope = {"type": "http", "method": method, "root_path": root_path, "path": path}
        allowed: set[str] = set()
        for route in self.specific_routes():
            match, _ = route.matches(scope)
            if match is Match.FULL:
                return None
            if match is Match.PARTIAL:
                allowed.update(getattr(route, "methods", None) or ())
        return frozenset(allowed) or None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self.allowed_methods(scope) if scope["type"] == "http" else None
        if found is None:
            await self.app(scope, receive, send)
            return
        allowed = set(found)
        if "GET" in allowed:
            allowed.add("HEAD")
        payload = json.dumps(error_body(METHOD_NOT_ALLOWED)).encode()
        await send({"type": "http.response.start", "status": 405, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
            (b"allow", ", ".join(sorted(allowed)).encode()),
        ]})
        await send({"type": "http.response.body", "body": payload if scope["method"] != "HEAD" else b""})
