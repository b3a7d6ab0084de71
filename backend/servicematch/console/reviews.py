"""Consumers' reviews of providers, in the console: read them all (hidden ones too), and hide one
with a reason. Admins only; hiding is on the audit log, with the reason."""

from __future__ import annotations

from fastapi import APIRouter, Query
from pydantic import BaseModel
from sqlalchemy import select

from servicematch.console import audit
from servicematch.console.audit import Action
from servicematch.console.auth import AdminOnly, Db
from servicematch.delivery.models import Provider
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES
from servicematch.intake.schemas import text
from servicematch.portal import reviews
from servicematch.portal.models import ProviderReview

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)
LIMIT = 200


class ConsoleReview(BaseModel):
    id: str
    providerId: str
    providerName: str
    stars: int
    text: str | None
    city: str | None
    state: str | None
    createdAt: str
    hiddenAt: str | None
    hiddenBy: str | None


class ConsoleReviewList(BaseModel):
    items: list[ConsoleReview]


class HideReview(BaseModel):
    reason: text(500, min_length=1)


def _json(review: ProviderReview, provider_name: str) -> ConsoleReview:
    return ConsoleReview(id=review.id, providerId=review.provider_id, providerName=provider_name, stars=review.stars,
                         text=review.text, city=review.city, state=review.state,
                         createdAt=reviews.as_iso(review.created_at), hiddenAt=reviews.as_iso(review.hidden_at),
                         hiddenBy=review.hidden_by)


@router.get("/reviews", response_model=ConsoleReviewList,
            summary="Consumers' reviews, newest first (the latest 200), hidden ones included (admins)")
def list_reviews(caller: AdminOnly, db: Db, providerId: str = Query(default="", max_length=36)) -> ConsoleReviewList:
    query = select(ProviderReview, Provider.name).join(Provider, Provider.id == ProviderReview.provider_id)
    if providerId:
        query = query.where(ProviderReview.provider_id == providerId)
    rows = db.execute(query.order_by(ProviderReview.created_at.desc(), ProviderReview.id).limit(LIMIT)).all()
    return ConsoleReviewList(items=[_json(review, name) for review, name in rows])


@router.post("/reviews/{review_id}/hide", response_model=ConsoleReview,
             summary="Hide a review from the provider's list and rating, with a reason (admins, audited)")
def hide_review(review_id: str, body: HideReview, caller: AdminOnly, db: Db) -> ConsoleReview:
    review = reviews.hide(db, review_id[:36], operator_email=caller.operator.email)
    audit.record(db, action=Action.REVIEW_HIDE, operator=caller.operator, ip=caller.ip, target=review.id,
                 detail={"providerId": review.provider_id, "reason": body.reason})
    db.commit()
    return _json(review, db.get(Provider, review.provider_id).name)
