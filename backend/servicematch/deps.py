"""Typed dependencies: what a route may ask for, from the app that create_app composed.

This is the one module that reads `request.app.state`; routes declare what they need
(`settings: SettingsDep`) and tests can override any of it with `app.dependency_overrides`.
Most are coroutines because they only read app state: FastAPI runs a plain `def` dependency
on the thread pool, one thread hop per dependency per request.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from servicematch.catalog.loader import CatalogIndex
from servicematch.db.session import session_scope
from servicematch.intake.store import LeadStore
from servicematch.settings import Settings


async def get_settings(request: Request) -> Settings:
    return request.app.state.settings


async def get_catalog(request: Request) -> CatalogIndex:
    return request.app.state.catalog


async def get_engine(request: Request) -> Engine:
    return request.app.state.engine


async def get_session_factory(request: Request) -> sessionmaker[Session]:
    return request.app.state.session_factory


def get_session(factory: Annotated[sessionmaker[Session], Depends(get_session_factory)]) -> Iterator[Session]:
    """One session per request: committed by the route, rolled back and closed on any error."""
    yield from session_scope(factory)


async def get_lead_store(request: Request) -> LeadStore:
    return request.app.state.lead_store


SettingsDep = Annotated[Settings, Depends(get_settings)]
CatalogDep = Annotated[CatalogIndex, Depends(get_catalog)]
EngineDep = Annotated[Engine, Depends(get_engine)]
SessionFactoryDep = Annotated[sessionmaker[Session], Depends(get_session_factory)]
SessionDep = Annotated[Session, Depends(get_session)]
LeadStoreDep = Annotated[LeadStore, Depends(get_lead_store)]
