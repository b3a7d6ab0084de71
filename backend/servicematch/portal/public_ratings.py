"""GET /api/ratings: what consumers' reviews say about the providers in the network, for the public
site's trust claims (docs/site-claims.md).

One aggregate over every visible review (an operator's hidden ones left out): the average stars
and how many. The site shows it only from MIN_REVIEWS on; below that the answer says `shown: false`
and carries no average, so no page can print a rating a handful of reviews would make
meaningless. The answer names nobody and holds no review text (consumers write that for the
provider and operators, not for publication).

Read at most once per CACHE_SECONDS per process, and cacheable by browsers and CDNs as long.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Response
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from servicematch.deps import SessionFactoryDep, app_part, install_part
from servicematch.portal.models import ProviderReview

# Fewer reviews than this and the average says little: the site shows no rating at all.
MIN_REVIEWS = 10
CACHE_SECONDS = 300
CACHE_CONTROL = f"public, max-age={CACHE_SECONDS}"


class PublicRating(BaseModel):
    shown: bool = Field(description=f"At least {MIN_REVIEWS} visible reviews: the site may show the rating")
    average: float | None = Field(description="Average stars, 1-5, one decimal place; null while not shown")
    count: int = Field(description="Visible reviews counted; 0 while not shown")
    minimum: int = Field(description="How many reviews the site waits for before it shows a rating")


@dataclass(frozen=True)
class Aggregate:
    average: float | None
    count: int

    def public(self) -> PublicRating:
        shown = self.count >= MIN_REVIEWS and self.average is not None
        return PublicRating(shown=shown, average=self.average if shown else None, count=self.count if shown else 0,
                            minimum=MIN_REVIEWS)


def review_aggregate(session: Session) -> Aggregate:
    """Every visible review's stars: their average (one decimal place) and count."""
    average, count = session.execute(
        select(func.avg(ProviderReview.stars), func.count()).where(ProviderReview.hidden_at.is_(None))).one()
    return Aggregate(average=round(float(average), 1) if count else None, count=count)


class RatingCache:
    """The aggregate, read again once it is older than `seconds` (one reader at a time)."""

    def __init__(self, seconds: float = CACHE_SECONDS, clock=time.monotonic) -> None:
        self.seconds, self.clock = seconds, clock
        self._lock = threading.Lock()
        self._value: Aggregate | None = None
        self._read_at = 0.0

    def get(self, factory: sessionmaker[Session]) -> Aggregate:
        with self._lock:
            now = self.clock()
            if self._value is None or now - self._read_at >= self.seconds:
                with factory() as session:
                    self._value = review_aggregate(session)
                self._read_at = now
            return self._value


router = APIRouter(prefix="/api", tags=["catalog"])
RatingCacheDep = Annotated[RatingCache, Depends(app_part("public_rating_cache"))]


def install_public_ratings(app: FastAPI) -> None:
    install_part(app, "public_rating_cache", RatingCache())
    app.include_router(router)


@router.get("/ratings", response_model=PublicRating,
            summary="Consumers' average rating of the network's providers, once there are enough reviews")
async def read_public_rating(factory: SessionFactoryDep, cache: RatingCacheDep, response: Response) -> PublicRating:
    response.headers["Cache-Control"] = CACHE_CONTROL
    aggregate = await run_in_threadpool(cache.get, factory)
    return aggregate.public()
