"""The portal's offers under /api/pro/providers/{provider_id}/offers: list, read, accept, decline.

Another provider's offer id answers 404 with no body, like another provider's id; accepting and
declining need the session's CSRF token and are on the audit log (by offer id: no personal data).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from servicematch.access.models import add_audit_entry
from servicematch.catalog.loader import CatalogDep
from servicematch.deps import SessionDep, SettingsDep
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, ErrorBody
from servicematch.kernel.clock import utcnow
from servicematch.portal import offers
from servicematch.portal.auth import OwnProvider
from servicematch.portal.sessions import API_PREFIX

ACCEPT, DECLINE = "portal.offer.accept", "portal.offer.decline"
NOT_FOUND_NO_BODY = {404: {"description": "Not this account's provider or offer, or none: no body at all"}}
NOT_OPEN = {409: {"model": ErrorBody, "description": "The offer is no longer open (expired, withdrawn, "
                                                     "declined), or accepting it would pass the weekly budget"}}

router = APIRouter(prefix=f"{API_PREFIX}/providers/{{provider_id}}/offers", tags=["portal"],
                   responses=SIGNED_IN_ERROR_RESPONSES)


@router.get("", response_model=offers.OfferList, responses=NOT_FOUND_NO_BODY,
            summary="The provider's offers, newest first (open ones by default)")
def list_offers(caller: OwnProvider, db: SessionDep, settings: SettingsDep,
                status: offers.StatusFilter = "open",
                before: Annotated[str | None, Query(max_length=200, description="The last page's nextCursor")] = None,
                limit: Annotated[int, Query(ge=1, le=100)] = 25) -> offers.OfferList:
    return offers.list_offers(db, settings, caller.provider, status=status, before=before, limit=limit, now=utcnow())


@router.get("/{offer_id}", response_model=offers.OfferDetail, responses=NOT_FOUND_NO_BODY,
            summary="One offer: the job, and the consumer's contact details once accepted")
def read_offer(offer_id: str, caller: OwnProvider, db: SessionDep, settings: SettingsDep,
               catalog: CatalogDep) -> offers.OfferDetail:
    return offers.read_offer(db, settings, catalog, caller.provider, offer_id, utcnow())


@router.post("/{offer_id}/accept", response_model=offers.OfferDetail, responses={**NOT_FOUND_NO_BODY, **NOT_OPEN},
             summary="Accept: charged the offer's price once, the contact details shown (a repeat changes nothing)")
def accept_offer(offer_id: str, caller: OwnProvider, db: SessionDep, settings: SettingsDep,
                 catalog: CatalogDep) -> offers.OfferDetail:
    return _decided(offer_id, caller, db, settings, catalog, accept=True)


@router.post("/{offer_id}/decline", response_model=offers.OfferDetail, responses={**NOT_FOUND_NO_BODY, **NOT_OPEN},
             summary="Decline: free; the lead may be offered to another provider")
def decline_offer(offer_id: str, caller: OwnProvider, db: SessionDep, settings: SettingsDep,
                  catalog: CatalogDep) -> offers.OfferDetail:
    return _decided(offer_id, caller, db, settings, catalog, accept=False)


def _decided(offer_id: str, caller, db, settings, catalog, *, accept: bool) -> offers.OfferDetail:
    now = utcnow()
    if offers.decide(db, settings, caller.provider, offer_id, accept=accept, now=now):
        add_audit_entry(db, action=ACCEPT if accept else DECLINE, actor_id=caller.account.id,
                        actor_email=caller.account.email, ip=caller.ip, target=caller.provider.id,
                        detail={"offerId": offer_id})
        db.commit()
    return offers.read_offer(db, settings, catalog, caller.provider, offer_id, now)
