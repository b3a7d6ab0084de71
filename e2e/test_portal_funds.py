"""Adding funds in the browser at 390 and 1280 px: a prepaid buyer with nothing in its balance opens
Billing, adds $250 by card through Checkout (the local Stripe stand-in's pay page, which sends the
signed events to the server's webhook, as Stripe does), comes back to the portal, sees the payment
confirmed and its balance at $250, the payment listed on Billing, and sets automatic top-up with the
card it saved."""

from __future__ import annotations

import base64
import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from console_support import controls, no_sideways_overflow
from playwright.sync_api import Page, expect
from site_paths import STATIC_DIR, server_log
from test_buyer_portal import _shot

from servicematch.access import passwords
from servicematch.buyer.models import BuyerAccount
from servicematch.db.session import make_engine, make_session_factory
from servicematch.devserver import ServerDidNotStart, start_server, stop_server
from servicematch.kernel.clock import utcnow
from servicematch.routing.buyers import BuyerTerms, add_buyer

ROOT = Path(__file__).resolve().parents[1]
# The backend tests' Stripe stand-in (backend/tests/stripe_standin.py).
sys.path.insert(0, str(ROOT / "backend" / "tests"))
from delivery_receivers import free_port
from stripe_standin import SECRET_KEY, WEBHOOK_SECRET, StripeStandIn

# One worker runs the module's tests one after another (--dist loadgroup), so that its server starts once.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("money-server")]
PASSWORD = "billing password 0123 abc"


class MoneyServer:
    def __init__(self, base_url: str, database_url: str) -> None:
        self.base_url, self.database_url = base_url, database_url


@pytest.fixture(scope="module")
def standin() -> Iterator[StripeStandIn]:
    server = StripeStandIn().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def money_server(tmp_path_factory, standin: StripeStandIn) -> Iterator[MoneyServer]:
    """A server of its own with card payments on, through the stand-in, which sends its events back."""
    if not (STATIC_DIR / "index.html").is_file():
        pytest.fail(f"{STATIC_DIR} is missing: run `make build` (make test does) before browser tests")
    port, workdir = free_port(), tmp_path_factory.mktemp("money")
    base_url, database_url = f"http://127.0.0.1:{port}", f"sqlite:///{workdir / 'money.db'}"
    env = {**os.environ, "SERVICEMATCH_DATABASE_URL": database_url, "SERVICEMATCH_ENVIRONMENT": "test",
           "SERVICEMATCH_DATA_KEY": base64.b64encode(os.urandom(32)).decode(), "SERVICEMATCH_SITE_ORIGIN": base_url,
           "SERVICEMATCH_STATIC_DIR": str(STATIC_DIR), "SERVICEMATCH_MAIL_DIR": str(workdir / "mail"),
           "SERVICEMATCH_STRIPE_SECRET_KEY": SECRET_KEY, "SERVICEMATCH_STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
           "SERVICEMATCH_STRIPE_API_BASE": standin.api_base, "HOST": "127.0.0.1", "PORT": str(port)}
    with server_log("money-server").open("w") as out:
        try:
            process = start_server(env=env, base_url=base_url, output=out)
        except ServerDidNotStart as failure:
            pytest.fail(f"{failure}; see {server_log('money-server')}")
        standin.deliver_to(base_url)
        yield MoneyServer(base_url, database_url)
        stop_server(process)


@pytest.fixture(scope="session")
def base_url() -> None:
    """No shared live server for these tests: each page opens this module's server's absolute URL."""


def _buyer_person(server: MoneyServer) -> str:
    """A new buyer (prepaid and empty, as every new account) and its person, with a password; the e-mail."""
    email = f"billing-{uuid.uuid4().hex[:8]}@example.com"
    with make_session_factory(make_engine(server.database_url))() as session:
        buyer = add_buyer(session, BuyerTerms(name=f"Funds Leads {uuid.uuid4().hex[:6]}", price_cents=3000,
                                              post_url="https://buyer.example/leads"), allow_private=True)
        session.flush()
        session.add(BuyerAccount(buyer_id=buyer.id, email=email, active=True, invited_by="e2e",
                                 password_hash=passwords.hash_password(PASSWORD), password_changed_at=utcnow()))
        session.commit()
    return email


def _tappable(page: Page) -> None:
    assert no_sideways_overflow(page), page.url
    nav = page.get_by_role("navigation", name="Portal").bounding_box()
    bottom = nav["y"] if nav and nav["y"] > page.viewport_size["height"] / 2 else page.viewport_size["height"]
    for control in controls(page, ("button",)):
        box = control.box if control.visible else None
        if box and box["y"] >= 0 and box["y"] + box["height"] <= bottom:
            assert box["height"] >= 40, f"{control.name} is small"
            assert control.tappable_at_centre, f"{control.name} is covered"


def test_a_prepaid_buyer_adds_funds_by_card_and_sees_its_balance(page: Page, money_server: MoneyServer,
                                                                  standin: StripeStandIn, save_screenshot):
    email = _buyer_person(money_server)
    page.goto(f"{money_server.base_url}/buyer/billing")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Billing", level=1)).to_be_visible()
    balance = page.get_by_role("region", name="Balance")
    expect(balance).to_contain_text("$0.00")
    expect(balance).to_contain_text("Prepaid")

    form = page.get_by_role("form", name="Add funds")
    form.get_by_label("Amount").fill("20000")
    expect(form.get_by_text("Whole dollars, from $1.00 to $10,000.00.")).to_be_visible()
    expect(form.get_by_role("button", name="Add funds")).to_be_disabled()
    form.get_by_label("Amount").fill("250")
    form.get_by_label("Save this card for automatic top-up").check()
    _tappable(page)
    form.get_by_role("button", name="Add $250.00").click()

    # Stripe's page (the stand-in's): the card is typed there, never on our server.
    expect(page.get_by_role("heading", name="Test checkout")).to_be_visible()
    assert page.url.startswith(standin.api_base)
    page.get_by_role("button", name="Pay $250.00").click()

    expect(page.get_by_text("Your payment of $250.00 was received and added to your balance.")).to_be_visible()
    expect(page.get_by_role("region", name="Balance")).to_contain_text("$250.00")
    assert [kind for kind, status, _ in standin.delivered[-2:] if status == 200] == [
        "payment_intent.succeeded", "checkout.session.completed"]

    page.get_by_role("link", name="Back to Billing").click()
    expect(page.get_by_role("heading", name="Billing", level=1)).to_be_visible()
    payments = page.get_by_role("list", name="Payments, newest first")
    expect(payments).to_contain_text("$250.00")
    expect(payments).to_contain_text("Received")
    # The card was kept: automatic top-up can be set.
    topup = page.get_by_role("form", name="Automatic top-up")
    topup.get_by_label("When the balance falls under").fill("50")
    topup.get_by_label("Charge the saved card").fill("100")
    topup.get_by_role("button", name="Save automatic top-up").click()
    expect(page.get_by_text("On: when your balance falls under $50.00, your saved card is charged $100.00.")
           ).to_be_visible()
    _tappable(page)
    _shot(page, save_screenshot, "buyer-billing")
