"""Admin JSON API for the provider directory, behind a bearer token from settings."""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from sqlalchemy.orm import Session

from servicematch.db.session import session_scope
from servicematch.delivery import providers as directory
from servicematch.delivery.schemas import ProviderCreate, ProviderPublic, ProviderUpdate
from servicematch.errors import NotFound, ServiceMatchError


def require_admin(request: Request) -> None:
    """The admin API exists only while a token is set, and answers only to that token."""
    token = request.app.state.settings.admin_token
    if not token:
        raise NotFound("Not Found")
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
        raise ServiceMatchError("A valid admin token is required.", status_code=401,
                                headers={"WWW-Authenticate": "Bearer"})


def get_session(request: Request) -> Iterator[Session]:
    yield from session_scope(request.app.state.session_factory)


SessionDep = Annotated[Session, Depends(get_session)]
router = APIRouter(prefix="/api/admin/providers", tags=["admin"], dependencies=[Depends(require_admin)])


@router.get("", summary="Every provider")
def list_providers(session: SessionDep) -> list[ProviderPublic]:
    return [directory.provider_public(p) for p in directory.list_providers(session=session)]


@router.post("", status_code=201, summary="Add a provider")
def add_provider(data: ProviderCreate, request: Request, session: SessionDep) -> ProviderPublic:
    provider = directory.add_provider(session=session, data=data, catalog=request.app.state.catalog)
    session.commit()
    return directory.provider_public(provider)


@router.get("/{provider_id}", summary="One provider")
def read_provider(provider_id: str, session: SessionDep) -> ProviderPublic:
    return directory.provider_public(directory.get_provider(session=session, provider_id=provider_id))


@router.patch("/{provider_id}", summary="Change a provider; send only the fields to change")
def update_provider(
    provider_id: str, changes: ProviderUpdate, request: Request, session: SessionDep
) -> ProviderPublic:
    provider = directory.update_provider(session=session, provider_id=provider_id, changes=changes,
                                         catalog=request.app.state.catalog)
    session.commit()
    return directory.provider_public(provider)


@router.post("/{provider_id}/disable", summary="Stop matching a provider")
def disable_provider(provider_id: str, session: SessionDep) -> ProviderPublic:
    provider = directory.disable_provider(session=session, provider_id=provider_id)
    session.commit()
    return directory.provider_public(provider)
