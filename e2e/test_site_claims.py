"""What the site claims has something behind it, at 390 and 1280 px (docs/site-claims.md):

- /call-thanks after a call-flow submission: no wait time, agent count or pretend availability
  check; the reference, the hours and who may call; the same page after a reload.
- /thank-you: the same reference after a reload; each company named with what it is (a lead buyer
  that may pass the request on, or a provider in the network), as on the roofing thank-you page.
- The home and a service page: no rating while there are too few reviews, the real average and
  count once there are enough.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from funnel_steps import (
    CALL_CENTRE_OPEN,
    RECEIVED,
    Contact,
    call_flow_steps,
    complete_steps,
    lead_form_steps,
    service_config,
    thank_you_heading,
)
from playwright.sync_api import Page, expect
from privacy_server import BUYER_NAME, PrivacyServer, _cli, start_privacy_server
from site_paths import STATIC_DIR, server_log
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend" / "tests"))
from offer_rows import portal_provider

from servicematch.delivery.models import Provider
from servicematch.portal.models import ProviderReview
from servicematch.portal.public_ratings import MIN_REVIEWS

pytestmark = pytest.mark.browser
# One worker each (--dist loadgroup): the tests on the privacy tests' shared server, and those on
# the server with reviews, which each start once.
ON_SHARED_SERVER = pytest.mark.xdist_group("privacy-sqlite")
ON_REVIEWED_SERVER = pytest.mark.xdist_group("site-claims-reviewed")
PHONES = itertools.count(600)
REFERENCE = re.compile(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}")
SHOTS = Path("/tmp/claims-shots")
ROOFER = "Hill Country Roofing"
# Twelve visible reviews averaging 4.3 (and a hidden 1-star one, left out).
STARS = [5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4, 5]
FAKE_CLAIMS = ("4.8", "Rated 4.8", "thousands of users", "past satisfaction", "What Our Users Say",
               "Success Stories", "Wait Time", "Agents Available")


@pytest.fixture(scope="module")
def server(shared_privacy_server) -> PrivacyServer:
    """The privacy tests' server, without reviews: the fixed buyer takes every lead, Cool Air and
    Lone Star Heating take HVAC in TX, and Hill Country Roofing (e-mail) takes roofing in TX (added
    here, once: the server is shared, and the other tests that use it send no roofing leads)."""
    running = shared_privacy_server("sqlite")
    engine = create_engine(running.env["SERVICEMATCH_DATABASE_URL"])
    try:
        with Session(engine) as session:
            added = session.scalar(select(Provider.id).where(Provider.name == ROOFER)) is not None
    finally:
        engine.dispose()
    if not added:
        _cli(running.env, ["providers", "add", "--name", ROOFER, "--email", "office@hillcountry.example",
                           "--service", "roofing", "--state", "TX", "--terms", "credit"])
    return running


@pytest.fixture(scope="module")
def reviewed_server(tmp_path_factory) -> Iterator[PrivacyServer]:
    """Another server whose database has enough reviews before any page asks for the rating."""
    running = start_privacy_server(backend="sqlite", workdir=tmp_path_factory.mktemp("reviewed"),
                                   static_dir=STATIC_DIR, log=server_log("claims-reviewed-server"))
    engine = create_engine(running.env["SERVICEMATCH_DATABASE_URL"])
    with Session(engine) as session:
        provider = portal_provider(session, "Reviewed Roofing")
        session.add_all(ProviderReview(provider_id=provider.id, stars=stars, text="Private words") for stars in STARS)
        session.add(ProviderReview(provider_id=provider.id, stars=1, hidden_by="ops@example.com",
                                   hidden_at=datetime.now(UTC)))
        session.commit()
    engine.dispose()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def base_url() -> None:
    """No shared live server for these tests: each page opens its own server's absolute URL."""


def new_contact() -> Contact:
    return Contact(phone=f"5125551{next(PHONES):03d}")


def shown_reference(page: Page) -> str:
    reference = page.get_by_text("Your reference").locator("xpath=..").locator("strong").inner_text()
    assert REFERENCE.fullmatch(reference), reference
    return reference


def shot(page: Page, name: str) -> None:
    if page.viewport_size and page.viewport_size["width"] == 390:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}-390.png"), full_page=True)


def expect_no_fake_claims(page: Page) -> None:
    for claim in FAKE_CLAIMS:
        expect(page.get_by_text(claim, exact=False)).to_have_count(0)


@ON_SHARED_SERVER
@pytest.mark.own_context  # sets the clock
def test_call_thanks_shows_the_reference_hours_and_who_may_call_and_survives_a_reload(
        page: Page, server: PrivacyServer, save_screenshot):
    service = service_config(server.base_url, "final-expense-ib")
    page.clock.set_fixed_time(CALL_CENTRE_OPEN)
    page.goto(f"{server.base_url}/call/final-expense-ib")
    complete_steps(page, call_flow_steps(service), new_contact())

    # At once: no "Checking Availability", no wait time or agent count.
    heading = page.get_by_role("heading", level=1, name="Thank you! We have your request.")
    expect(heading).to_be_visible(timeout=15_000)
    expect(page.get_by_text("Checking Availability", exact=False)).to_have_count(0)
    expect(page.get_by_text(service["successMessage"])).to_be_visible()
    reference = shown_reference(page)
    expect(page.get_by_text("Call before 6 PM ET to speak with an agent:")).to_be_visible()
    number = page.get_by_role("link", name=service["ringbaPhoneNumber"])
    expect(number).to_be_visible()
    expect(number).to_have_attribute("href", "tel:+18885550142")
    box = number.bounding_box()
    assert box and box["height"] >= 44, box  # tappable
    expect(page.get_by_text("Agents take calls from 9 AM to 6 PM ET, every day.")).to_be_visible()
    # Who may call: the buyer the lead went to, said to be what it is.
    who = page.get_by_role("region", name="Who may call you")
    expect(who.get_by_role("listitem")).to_have_text(
        [f"{BUYER_NAME}A lead buyer, which may pass your request on to companies that offer {service['name']}"],
        timeout=15_000)
    expect_no_fake_claims(page)
    shot(page, "call-thanks")
    save_screenshot(page, "call-thanks-status")

    page.reload()
    expect(page).to_have_url(f"{server.base_url}/call-thanks")
    expect(heading).to_be_visible()
    assert shown_reference(page) == reference
    expect(page.get_by_role("link", name=service["ringbaPhoneNumber"])).to_be_visible()
    expect(who.get_by_role("listitem")).to_have_count(1, timeout=15_000)
    expect_no_fake_claims(page)


@pytest.mark.clock_installed  # thank_you_heading moves the clock past the loader
@ON_SHARED_SERVER
def test_the_roofing_thank_you_says_what_each_company_is_and_survives_a_reload(
        page: Page, server: PrivacyServer, save_screenshot):
    service = service_config(server.base_url, "roofing")
    page.goto(f"{server.base_url}/form/roofing")
    complete_steps(page, lead_form_steps(server.base_url, service), new_contact())

    assert thank_you_heading(page) == RECEIVED
    expect(page.get_by_text(service["successMessage"])).to_be_visible()
    expect(page.get_by_text("local roofers", exact=False)).to_have_count(0)
    who = page.get_by_role("region", name="Who will contact you")
    expected = [f"{BUYER_NAME}A lead buyer, which may pass your request on to companies that offer Roofing",
                f"{ROOFER}A provider in our network that offers Roofing"]
    expect(who.get_by_role("listitem")).to_have_text(expected)
    reference = shown_reference(page)
    shot(page, "thank-you")
    save_screenshot(page, "thank-you-roofing")

    page.reload()
    expect(page).to_have_url(f"{server.base_url}/thank-you")
    assert thank_you_heading(page) == RECEIVED
    assert shown_reference(page) == reference
    expect(who.get_by_role("listitem")).to_have_text(expected)
    # What the tab keeps to redraw the page: no name, e-mail, phone or address.
    kept = page.evaluate("() => sessionStorage.getItem('serviceMatchThankYou')")
    assert reference in kept and "Maria" not in kept and "@" not in kept and "Congress" not in kept


@ON_SHARED_SERVER
def test_without_enough_reviews_no_page_claims_a_rating(page: Page, server: PrivacyServer):
    page.goto(f"{server.base_url}/")
    trust = page.get_by_role("region", name="Why people trust us")
    expect(trust).to_contain_text("No Obligation")
    expect(page.get_by_role("heading", name="What Consumers Say")).to_have_count(0)
    expect(page.get_by_text("out of 5", exact=False)).to_have_count(0)
    expect_no_fake_claims(page)

    page.goto(f"{server.base_url}/services/hvac")
    expect(page.get_by_role("heading", name="Why Use ServiceMatch?")).to_be_visible()
    expect(page.get_by_text("Providers in our network who serve your area", exact=False)).to_be_visible()
    expect(page.get_by_role("heading", name="What Consumers Say")).to_have_count(0)
    expect(page.get_by_text("out of 5", exact=False)).to_have_count(0)
    expect_no_fake_claims(page)


@ON_REVIEWED_SERVER
def test_with_enough_reviews_the_real_average_and_count_are_shown(page: Page, reviewed_server: PrivacyServer,
                                                                   save_screenshot):
    assert len(STARS) >= MIN_REVIEWS
    average = f"{round(sum(STARS) / len(STARS), 1):.1f} out of 5"
    page.goto(f"{reviewed_server.base_url}/")
    trust = page.get_by_role("region", name="Why people trust us")
    expect(trust.get_by_text(average)).to_be_visible()
    expect(trust.get_by_text(f"From {len(STARS)} consumer reviews")).to_be_visible()
    rating = page.get_by_role("region", name="What Consumers Say")
    expect(rating).to_contain_text(average)
    expect(rating).to_contain_text(f"The average of {len(STARS)} consumer reviews")
    expect_no_fake_claims(page)
    save_screenshot(page, "home-rated")

    page.goto(f"{reviewed_server.base_url}/services/hvac")
    rating = page.get_by_role("region", name="What Consumers Say")
    rating.scroll_into_view_if_needed()
    expect(rating).to_be_visible()
    expect(rating).to_contain_text(average)
    expect(rating).to_contain_text(f"{len(STARS)} consumer reviews")
    expect(page.get_by_text("Private words")).to_have_count(0)
    expect_no_fake_claims(page)
    # Legal pages show no rating.
    page.goto(f"{reviewed_server.base_url}/services/personal-injury")
    expect(page.get_by_role("heading", name="Frequently Asked Questions")).to_be_visible()
    expect(page.get_by_role("region", name="What Consumers Say")).to_have_count(0)
