"""Offline address autocomplete: GET /api/address/suggest and GET /api/address/zip/{zip}."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Response

from servicematch.errors import RATE_LIMITED_RESPONSES, NotFound
from servicematch.inbound.ratelimit import counted_always

from . import service
from .directory import load_directory
from .schemas import SuggestionList, ZipPublic

router = APIRouter(prefix="/api/address", tags=["address"])
# The ZIP data ships with the release, so answers stay valid until the next deploy.
CACHE_CONTROL = "public, max-age=3600"


@router.get("/suggest", summary="Suggest US addresses for partly typed text", response_model=SuggestionList,
            dependencies=[Depends(counted_always("address_limiter"))], responses=RATE_LIMITED_RESPONSES)
def suggest_addresses(
    response: Response,
    q: Annotated[str, Query(min_length=2, max_length=200, description="What the visitor typed")],
    limit: Annotated[int, Query(ge=1, le=20)] = 6,
) -> SuggestionList:
    response.headers["Cache-Control"] = CACHE_CONTROL
    return SuggestionList(suggestions=service.suggest(directory=load_directory(), query=q, limit=limit))


@router.get("/zip/{zip_code}", summary="City, state and county of a US ZIP code", response_model=ZipPublic)
def read_zip(
    response: Response,
    zip_code: Annotated[str, Path(pattern=r"^\d{5}$", description="Five-digit ZIP code")],
) -> ZipPublic:
    entry = load_directory().get(zip_code)
    if entry is None:
        raise NotFound("Unknown ZIP code", fields={"zip": f"No US ZIP code {zip_code} is known."})
    response.headers["Cache-Control"] = CACHE_CONTROL
    return ZipPublic(zip=entry.zip, city=entry.city, state=entry.state, county=entry.county)
