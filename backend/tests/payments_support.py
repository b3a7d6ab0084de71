"""Card payments in tests: the local Stripe stand-in (stripe_standin.py) as a fixture, settings that
point the app at it, and a few reads of the ledger.

    from payments_support import app, standin, stripe_on   # noqa: F401 (fixtures)

    @pytest.fixture
    def settings(settings, standin):
        return stripe_on(settings, standin)
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select
from stripe_standin import SECRET_KEY, WEBHOOK_SECRET, StripeStandIn

from servicematch.ledger.models import LedgerAccount, LedgerEntry, Payment
from servicematch.settings import Settings


@pytest.fixture
def standin() -> Iterator[StripeStandIn]:
    server = StripeStandIn().start()
    yield server
    server.stop()


def stripe_on(settings: Settings, standin: StripeStandIn, **more) -> Settings:
    """Card payments on, through the stand-in; Checkout returns to https://servicematch.example."""
    return settings.model_copy(update={"stripe_secret_key": SECRET_KEY, "stripe_webhook_secret": WEBHOOK_SECRET,
                                       "stripe_api_base": standin.api_base,
                                       "site_origin": "https://servicematch.example", **more})


def account_of(app, kind: str, owner_id: str) -> LedgerAccount | None:
    with app.state.session_factory() as session:
        found = session.scalars(select(LedgerAccount).where(LedgerAccount.kind == kind,
                                                            LedgerAccount.owner_id == owner_id)).first()
        if found is not None:
            session.expunge(found)
        return found


def entries_of(app, account_id: str) -> list[LedgerEntry]:
    with app.state.session_factory() as session:
        rows = list(session.scalars(select(LedgerEntry).where(LedgerEntry.account_id == account_id)
                                    .order_by(LedgerEntry.id)))
        session.expunge_all()
        return rows


def payment(app, payment_id: str) -> Payment:
    with app.state.session_factory() as session:
        row = session.get(Payment, payment_id)
        session.expunge(row)
        return row


def session_of(standin: StripeStandIn, url: str) -> str:
    """The Checkout session's id from its url (the stand-in's pay page)."""
    assert url.startswith(f"{standin.api_base}/pay/"), url
    return url.rsplit("/", 1)[1]


__all__ = ["SECRET_KEY", "WEBHOOK_SECRET", "StripeStandIn"]
