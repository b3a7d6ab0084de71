"""Reviews over HTTP: the consumer's link (no account: the signed token is the key, rate-limited per
client like the other public forms) and the provider's own list in the portal."""

from __future__ import annotations

from fastapi import APIRouter, Depends, FastAPI
from pydantic import BaseModel, ConfigDict, Field

from servicematch.catalog.loader import CatalogDep
from servicematch.deps import SessionDep, SettingsDep, install_part
from servicematch.errors import (
    RATE_LIMITED_RESPONSES,
    SIGNED_IN_ERROR_RESPONSES,
    ErrorBody,
    ServiceMatchError,
)
from servicematch.inbound.ratelimit import LimitStore, SlidingWindowLimiter, counted_always
from servicematch.kernel.numbers import WholeNumber
from servicematch.portal import reviews
from servicematch.portal.auth import OwnProvider
from servicematch.portal.sessions import API_PREFIX

STARS = "Choose from 1 to 5 stars."
TOO_LONG = f"Keep it to {reviews.MAX_TEXT:,} characters."
LINK_ERRORS = {410: {"model": ErrorBody, "description": "The link is not valid, expired, or its request is gone"}}

public = APIRouter(prefix="/api/reviews", tags=["reviews"], responses={**RATE_LIMITED_RESPONSES, **LINK_ERRORS})
portal = APIRouter(prefix=API_PREFIX, tags=["portal"], responses=SIGNED_IN_ERROR_RESPONSES)
_limit = Depends(counted_always("review_limiter"))


class ReviewLink(BaseModel):
    token: str = Field(min_length=1, max_length=400, description="The token from the link's fragment")


class ReviewLinkInfo(BaseModel):
    providerName: str
    serviceName: str
    alreadyRated: bool


class NewReview(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(min_length=1, max_length=400)
    # The bounds are stated in the schema and checked in the handler, which words the refusal plainly.
    stars: WholeNumber = Field(description="1 to 5", json_schema_extra={"minimum": 1, "maximum": 5})
    # Bounded here for the body's sake; the 1,000-character limit is checked with a plain message.
    text: str | None = Field(default=None, max_length=20_000, description="A few words, at most 1,000 characters")


class ReviewThanks(BaseModel):
    message: str


class ReviewItem(BaseModel):
    id: str
    stars: int
    text: str | None
    city: str | None
    state: str | None
    createdAt: str


class ProviderReviews(BaseModel):
    average: float | None = Field(description="Average stars, one decimal place; null without reviews")
    count: int
    items: list[ReviewItem] = Field(description="Newest first, the latest 100; hidden reviews left out")


@public.post("/lookup", response_model=ReviewLinkInfo, dependencies=[_limit],
             summary="What a review link rates: the provider and the service, and whether it was rated already")
def look_up(body: ReviewLink, db: SessionDep, settings: SettingsDep, catalog: CatalogDep) -> ReviewLinkInfo:
    found = reviews.look_up(db, settings, catalog, body.token)
    return ReviewLinkInfo(providerName=found.provider_name, serviceName=found.service_name,
                          alreadyRated=found.already_rated)


@public.post("", status_code=201, response_model=ReviewThanks, dependencies=[_limit],
             responses={409: {"model": ErrorBody, "description": "This request's provider was rated already"}},
             summary="Rate the provider a review link names: 1-5 stars and a few words, once")
def rate(body: NewReview, db: SessionDep, settings: SettingsDep) -> ReviewThanks:
    problems = {}
    if not 1 <= body.stars <= 5:
        problems["stars"] = STARS
    if body.text is not None and len(body.text.strip()) > reviews.MAX_TEXT:
        problems["text"] = f"{TOO_LONG} This is {len(body.text.strip()):,}."
    if problems:
        raise ServiceMatchError("The review was not sent: " + " ".join(problems.values()), fields=problems,
                                status_code=422)
    reviews.submit(db, settings, token=body.token, stars=body.stars, text=body.text)
    db.commit()
    return ReviewThanks(message="Thank you: your rating is saved.")


@portal.get("/providers/{provider_id}/reviews", response_model=ProviderReviews,
            responses={404: {"description": "Not this account's provider, or none: no body at all"}},
            summary="The provider's rating and its consumers' reviews (hidden ones left out)")
def provider_reviews(caller: OwnProvider, db: SessionDep) -> ProviderReviews:
    return ProviderReviews(**reviews.provider_reviews(db, caller.provider.id))


def install_reviews(app: FastAPI, store: LimitStore) -> None:
    # As generous as the other link pages: enough for a household, too few to guess tokens.
    install_part(app, "review_limiter", SlidingWindowLimiter(name="reviews", limit=30, window_seconds=900,
                                                             store=store))
    app.include_router(public)
    app.include_router(portal)
