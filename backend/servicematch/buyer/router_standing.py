"""The buyer's standing, under /api/buyer (a person's session) and /api/buyer/v1 (an API key): how
it pays, its balance and what it may still spend, and, while it is not receiving leads, why and what
to do. The portal shows it as a banner on every page and in its Settings' Status card.

Only the caller's own buyer's (`caller.buyer`): there is no id to get wrong.
"""

from __future__ import annotations

from servicematch.buyer.auth import SignedInBuyer
from servicematch.buyer.prefixes import BothPrefixes
from servicematch.deps import SessionDep, SettingsDep
from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import AccountKind
from servicematch.ledger.standing import AccountStanding, standing_view

both = BothPrefixes()


@both.route("GET", "/account/standing", response_model=AccountStanding,
            summary="How the buyer pays, its balance, and whether it is receiving leads (why not, what to do)")
def read_standing(caller: SignedInBuyer, db: SessionDep, settings: SettingsDep) -> AccountStanding:
    return standing_view(db, AccountKind.BUYER, caller.buyer.id, utcnow(), grace_days=settings.overdue_grace_days)


router = both.router
