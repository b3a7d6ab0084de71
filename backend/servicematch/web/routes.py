"""The site's route table (routes.json), which the browser's router reads too.

One entry per path pattern: the kind of page, the screen module that draws it, whether it is a
funnel page (reduced shell), listed in the sitemap, indexable, and rendered at build time.
Patterns use React Router's syntax: literal segments, `:name` parameters and a trailing `*`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

ROUTES_FILE = Path(__file__).with_name("routes.json")

RouteKind = Literal["home", "category", "static", "modal", "funnel", "admin", "portal", "service"]


@dataclass(frozen=True)
class Route:
    path: str
    kind: RouteKind
    screen: str | None
    funnel: bool
    sitemap: bool
    indexable: bool
    prerender: bool
    entry: str = "index.html"
    title: str | None = None
    description: str | None = None

    def match(self, segments: list[str]) -> dict[str, str] | None:
        """The parameters this route reads from a path's segments; None when it does not match."""
        pattern = [s for s in self.path.split("/") if s]
        if pattern and pattern[-1] == "*":
            if segments[: len(pattern) - 1] != pattern[:-1]:
                return None
            return {"*": "/".join(segments[len(pattern) - 1:])}
        if len(pattern) != len(segments):
            return None
        params: dict[str, str] = {}
        for expected, actual in zip(pattern, segments, strict=True):
            if expected.startswith(":"):
                params[expected[1:]] = actual
            elif expected != actual:
                return None
        return params

    def build(self, **params: str) -> str:
        """The path of this route with its parameters filled in."""
        return "/" + "/".join(params[s[1:]] if s.startswith(":") else s for s in self.path.split("/") if s)


@cache
def routes() -> tuple[Route, ...]:
    entries = json.loads(ROUTES_FILE.read_text(encoding="utf-8"))["routes"]
    return tuple(Route(**entry) for entry in entries)


def match_route(path: str) -> tuple[Route, dict[str, str]] | None:
    """The first route in the table that matches a path, with its parameters."""
    segments = [s for s in path.split("/") if s]
    for route in routes():
        params = route.match(segments)
        if params is not None:
            return route, params
    return None
