"""Typed dependencies: what a route may ask for, from the parts create_app composed the app of.

This is the one module that reads or writes `app.state` (a test pins it). create_app and the rooms'
install functions hand it their parts with `install_part`; routes declare what they need
(`settings: SettingsDep`, a room's own `CatalogDep`) and tests can override any of it with
`app.dependency_overrides`. Rooms define the dependencies for their own parts with `app_part`, so
this module imports no room. Most are coroutines because they only read app state: FastAPI runs
a plain `def` dependency on the thread pool, one thread hop per dependency per request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from functools import cache
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from servicematch.db.session import session_scope
from servicematch.settings import Settings


def install_part(app: FastAPI, name: str, part: object) -> None:
    """Keep one part of the app (its settings, a limiter, the lead store) for routes to ask for."""
    setattr(app.state, name, part)


def part_of(app: FastAPI, name: str) -> Any:
    """A part installed earlier, for install code that composes one part from others."""
    return getattr(app.state, name)


def request_part(request: Request, name: str) -> Any:
    """A part of the app serving this request, for code that already holds the request."""
    return getattr(request.app.state, name)


@cache
def app_part(name: str) -> Callable[[Request], Awaitable[Any]]:
    """The dependency that hands a route the part installed as `name`: one function per name, so
    `app.dependency_overrides[app_part("catalog")]` overrides it everywhere."""

    async def read_part(request: Request) -> Any:
        return getattr(request.app.state, name)

    read_part.__name__ = f"get_{name}"
    return read_part


get_settings = app_part("settings")
get_engine = app_part("engine")
get_session_factory = app_part("session_factory")


def get_session(factory: Annotated[sessionmaker[Session], Depends(get_session_factory)]) -> Iterator[Session]:
    """One session per request: committed by the route, rolled back and closed on any error."""
    yield from session_scope(factory)


def settings_of(request: Request) -> Settings:
    return request.app.state.settings


SettingsDep = Annotated[Settings, Depends(get_settings)]
EngineDep = Annotated[Engine, Depends(get_engine)]
SessionFactoryDep = Annotated[sessionmaker[Session], Depends(get_session_factory)]
SessionDep = Annotated[Session, Depends(get_session)]
