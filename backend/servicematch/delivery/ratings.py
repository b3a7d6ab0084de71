"""Providers' ratings from consumers' reviews: the average stars and how many, hidden reviews left out.

Read here, beside the providers table, because everything that names a provider to a consumer
needs it: the consent receipt (privacy), the thank-you page's status (routing) and the portal's
profile. The reviews table belongs to the portal, which sits above all three; it is read by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import column, func, select, table
from sqlalchemy.orm import Session

_REVIEWS = table("provider_reviews", column("provider_id"), column("stars"), column("hidden_at"))


@dataclass(frozen=True)
class Rating:
    average: float | None  # one decimal place; None without a (visible) review
    count: int

    def in_words(self) -> str:
        """"4.5 out of 5 from 12 reviews" (callers show it only when count > 0)."""
        return f"{self.average:.1f} out of 5 from {self.count} review{'s' if self.count != 1 else ''}"


NO_RATING = Rating(average=None, count=0)


def provider_ratings(*, session: Session, provider_ids: list[str]) -> dict[str, Rating]:
    """Each provider's rating (NO_RATING for one without visible reviews), in one query."""
    ids = sorted({provider_id for provider_id in provider_ids if provider_id})
    if not ids:
        return {}
    rows = session.execute(
        select(_REVIEWS.c.provider_id, func.avg(_REVIEWS.c.stars), func.count())
        .where(_REVIEWS.c.provider_id.in_(ids), _REVIEWS.c.hidden_at.is_(None))
        .group_by(_REVIEWS.c.provider_id)
    ).all()
    found = {provider_id: Rating(average=round(float(average), 1), count=count)
             for provider_id, average, count in rows}
    return {provider_id: found.get(provider_id, NO_RATING) for provider_id in ids}
