"""Admin JSON API for the provider directory, behind a bearer token from settings."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from servicematch.catalog.loader import CatalogDep
from servicematch.delivery import providers as directory
from servicematch.delivery.schemas import ProviderCreate, ProviderPublic, ProviderUpdate
from servicematch.deps import SessionDep, SettingsDep
from servicematch.errors import ErrorBody, NotFound, ServiceMatchError
from servicematch.inbound.client import client_ip
from servicematch.inbound.ratelimit import AdminAuthLimiterDep, too_many

# Declares the bearer scheme in the OpenAPI schema; the checks below stay ours (auto_error off).
bearer = HTTPBearer(auto_error=False, description="SERVICEMATCH_ADMIN_TOKEN")


async def require_admin(request: Request, settings: SettingsDep, failures: AdminAuthLimiterDep,
                        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> None:
    """The admin API exists only while a token is set, and answers only to that token.

    Wrong tokens are counted per client address; past the allowance every attempt, right or
    wrong, is a 429 until the window moves on, so a token cannot be guessed at speed.
    """
    token = settings.admin_token
    if not token:
        raise NotFound("Not Found")
    client = client_ip(request, trusted_proxies=settings.trusted_proxies)
    wait = await failures.call(failures.retry_after, client)
    if wait > 0:
        raise too_many(wait)
    given = credentials.credentials if credentials else ""
    if not hmac.compare_digest(given.strip().encode(), token.encode()):
        await failures.call(failures.record, client)
        raise ServiceMatchError("A valid admin token is required.", status_code=401,
                                headers={"WWW-Authenticate": "Bearer"})


router = APIRouter(prefix="/api/admin/providers", tags=["admin"], dependencies=[Depends(require_admin)],
                   responses={401: {"model": ErrorBody}, 429: {"model": ErrorBody}})


@router.get("", summary="Every provider")
def list_providers(session: SessionDep) -> list[ProviderPublic]:
    return [directory.provider_public(p) for p in directory.list_providers(session=session)]


@router.post("", status_code=201, summary="Add a provider")
def add_provider(data: ProviderCreate, catalog: CatalogDep, session: SessionDep) -> ProviderPublic:
    provider = directory.add_provider(session=session, data=data, catalog=catalog)
    session.commit()
    return directory.provider_public(provider)


@router.get("/{provider_id}", summary="One provider")
def read_provider(provider_id: str, session: SessionDep) -> ProviderPublic:
    return directory.provider_public(directory.get_provider(session=session, provider_id=provider_id))


@router.patch("/{provider_id}", summary="Change a provider; send only the fields to change")
def update_provider(
    provider_id: str, changes: ProviderUpdate, catalog: CatalogDep, session: SessionDep
) -> ProviderPublic:
    provider = directory.update_provider(session=session, provider_id=provider_id, changes=changes,
                                         catalog=catalog)
    session.commit()
    return directory.provider_public(provider)


@router.post("/{provider_id}/disable", summary="Stop matching a provider")
def disable_provider(provider_id: str, session: SessionDep) -> ProviderPublic:
    provider = directory.disable_provider(session=session, provider_id=provider_id)
    session.commit()
    return directory.provider_public(provider)
