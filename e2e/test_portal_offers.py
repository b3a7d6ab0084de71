"""The provider's paying journey at 390 and 1280 px: signed in, a matching lead arrives as an offer in
the open list without a reload, its page shows no contact details until Accept, a credit is asked for
and its status shown, the statement lists the charge; another provider's offer is not found."""

from __future__ import annotations

import re
import sys
import uuid
from pathlib import Path

import httpx
import pytest
from console_support import (
    controls,
    no_sideways_overflow,
    servicematch_cli,
    submit_lead,
    wait_until,
)
from playwright.sync_api import Page, expect
from portal_pages import PORTAL_PASSWORD, mailed_token
from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from screens import save_small_png

pytestmark = pytest.mark.browser

# One ZIP per viewport, in El Paso: far from the Austin ZIP codes (and their radii) of the other
# browser tests' HVAC providers, so the lead's seats go to this test's two providers.
ZIPS = {390: "79901", 1280: "79902"}
CITY = "El Paso"
CONSUMER = ("Garcia", "1100 E 5th St")


def _tappable(page: Page) -> None:
    """Nothing scrolls sideways, every control is at least 44 px tall and nothing covers it."""
    assert no_sideways_overflow(page), page.url
    for control in controls(page, within=("p, dd, dt",)):
        if not control.visible:
            continue
        box = control.box
        if box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]:
            assert box["height"] >= 44 or control.inside["p, dd, dt"], f"{control.name} is small"
            assert control.tappable_at_centre, f"{control.name} is covered"


def _shot(page: Page, save_screenshot, name: str) -> None:
    """The whole page into e2e/artifacts/; at 390 px the first screen, as a phone shows it, into docs/screens/."""
    save_screenshot(page, name)
    if page.viewport_size["width"] == 390:
        page.evaluate("() => window.scrollTo(0, 0)")
        save_small_png(page.screenshot(), ROOT / "docs" / "screens" / f"{name}-390.png")


def _invite(database_url: str, mail_dir, base_url: str, zip_code: str, name: str) -> str:
    email = f"hvac-{uuid.uuid4().hex[:8]}@example.com"
    servicematch_cli(database_url, "providers", "invite", "--email", email, "--name", name, "--services",
                     "services/hvac", "--zips", zip_code, "--licence", "TACLA12345C", "--licence-state", "TX",
                     env={"SERVICEMATCH_MAIL_DIR": str(mail_dir), "SERVICEMATCH_SITE_ORIGIN": base_url})
    # An invited provider is prepaid and empty: on credit, it is offered leads before paying anything in.
    servicematch_cli(database_url, "providers", "update", name, "--terms", "credit")
    return email


def _provider_id(engine, email: str) -> str:
    with engine.connect() as connection:
        return connection.execute(text("SELECT provider_id FROM provider_accounts WHERE email = :email"),
                                  {"email": email}).scalar_one()


def _offer_of(engine, provider_id: str):
    with engine.connect() as connection:
        return connection.execute(text("SELECT id FROM provider_offers WHERE provider_id = :id"),
                                  {"id": provider_id}).scalar()


def test_an_offer_arrives_live_is_accepted_credited_and_another_providers_is_not_found(
        page: Page, live_server, server_database_url, server_mail_dir, server_engine, save_screenshot):
    zip_code = ZIPS[page.viewport_size["width"]]
    mine = _invite(server_database_url, server_mail_dir, live_server, zip_code, f"Cool Air {uuid.uuid4().hex[:4]}")
    theirs = _invite(server_database_url, server_mail_dir, live_server, zip_code, f"Cold Front {uuid.uuid4().hex[:4]}")
    # The other provider chooses its password too, without a browser.
    answer = httpx.post(f"{live_server}/api/pro/password", timeout=20, json={
        "token": mailed_token(server_mail_dir, theirs, "welcome"), "password": PORTAL_PASSWORD})
    assert answer.status_code == 200, answer.text

    page.goto(f"/pro/welcome#{mailed_token(server_mail_dir, mine, 'welcome')}")
    page.get_by_label("New password").fill(PORTAL_PASSWORD)
    page.get_by_label("The same password again").fill(PORTAL_PASSWORD)
    page.get_by_role("button", name="Save and sign in").click()
    # Offers are the first page after signing in.
    expect(page.get_by_role("heading", name="Offers", level=1)).to_be_visible()
    expect(page.get_by_text("No open offers right now")).to_be_visible()

    submit_lead(live_server, zip_code=zip_code)
    # No reload: the open page hears of the offer and lists it.
    card = page.get_by_role("list", name="Open offers").get_by_role("link").first
    expect(card).to_be_visible(timeout=20_000)
    expect(page.get_by_text("New offer")).to_be_visible()
    expect(card).to_contain_text(f"{CITY}, TX {zip_code}")
    expect(card).to_contain_text("left")
    page_text = page.content()
    assert all(detail not in page_text for detail in CONSUMER)
    _tappable(page)
    _shot(page, save_screenshot, "portal-offers")

    card.click()
    accept = page.get_by_role("button", name=re.compile(r"^Accept for \$\d+\.\d\d$"))
    expect(accept).to_be_visible()
    expect(page.get_by_role("heading", name="The customer’s answers")).to_be_visible()
    assert all(detail not in page.content() for detail in CONSUMER)
    assert page.locator("a[href^='tel:'], a[href^='mailto:']").count() == 0
    _tappable(page)
    _shot(page, save_screenshot, "portal-offer")
    offer_url = page.url

    accept.click()
    contact = page.get_by_role("region", name="Contact the customer")
    expect(contact.get_by_text("Maria Garcia")).to_be_visible()
    expect(contact.locator("a[href^='tel:']")).to_be_visible()
    expect(contact.locator("a[href^='mailto:']")).to_be_visible()
    expect(contact.get_by_text("Lead reference")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Accept"))).to_have_count(0)
    _tappable(page)
    _shot(page, save_screenshot, "portal-offer-accepted")

    page.get_by_role("button", name="Request a credit").click()
    form = page.get_by_role("form", name="Request a credit")
    form.get_by_label("Other (tell us why)").check()
    form.get_by_role("button", name="Send the request").click()
    expect(form.get_by_text("Tell us in a few words")).to_be_visible()  # words are required for Other
    form.get_by_label("Wrong or disconnected phone").check()
    form.get_by_role("button", name="Send the request").click()
    credit = page.get_by_role("region", name="Credit request")
    expect(credit.get_by_text("Waiting for review")).to_be_visible()
    page.reload()
    expect(page.get_by_role("region", name="Credit request").get_by_text("Waiting for review")).to_be_visible()

    page.get_by_role("navigation", name="Portal").get_by_role("link", name="Money").click()
    statement = page.get_by_role("region", name="Statement")
    expect(statement.get_by_text(f"{CITY} TX {zip_code}")).to_be_visible()
    expect(statement.get_by_role("link", name="Download CSV")).to_be_visible()
    expect(page.get_by_role("region", name="Credit requests").get_by_text("Waiting for review")).to_be_visible()
    _tappable(page)
    _shot(page, save_screenshot, "portal-money")

    # The same lead's offer to the other provider: not found, in the page and in the API.
    their_offer = wait_until(lambda: _offer_of(server_engine, _provider_id(server_engine, theirs)),
                             "the other provider's offer")
    page.goto(offer_url.rsplit("/", 1)[0] + f"/{their_offer}")
    expect(page.get_by_role("heading", name="Offer not found")).to_be_visible()
    assert "Maria" not in page.content()
    my_id = _provider_id(server_engine, mine)
    refused = page.request.get(f"/api/pro/providers/{my_id}/offers/{their_offer}")
    assert (refused.status, refused.body()) == (404, b"")
    other_provider = page.request.get(f"/api/pro/providers/{_provider_id(server_engine, theirs)}/offers")
    assert (other_provider.status, other_provider.body()) == (404, b"")
