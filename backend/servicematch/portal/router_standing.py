"""The provider's standing, under /api/pro/providers/{provider_id}/standing: how it pays, its
balance and what it may still spend, and, while it is not receiving leads, why and what to do. The
portal shows it as a banner on every page and on the Money page.

Another provider's id answers 404 with no body (OwnProvider), like every route of the portal.
"""

from __future__ import annotations

from fastapi import APIRouter

from servicematch.deps import SessionDep, SettingsDep
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES
from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import AccountKind
from servicematch.ledger.standing import AccountStanding, standing_view
from servicematch.portal.auth import OwnProvider
from servicematch.portal.sessions import API_PREFIX

NOT_FOUND_NO_BODY = {404: {"description": "Not this account's provider, or none: no body at all"}}

router = APIRouter(prefix=f"{API_PREFIX}/providers/{{provider_id}}", tags=["portal"],
                   responses=SIGNED_IN_ERROR_RESPONSES)


@router.get("/standing", response_model=AccountStanding, responses=NOT_FOUND_NO_BODY,
            summary="How the provider pays, its balance, and whether it is receiving leads (why not, what to do)")
def read_standing(caller: OwnProvider, db: SessionDep, settings: SettingsDep) -> AccountStanding:
    return standing_view(db, AccountKind.PROVIDER, caller.provider.id, utcnow(),
                         grace_days=settings.overdue_grace_days)
