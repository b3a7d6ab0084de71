"""The review link's page, /review#<token>, in Chromium at 390 and 1280 px: the token leaves the
address bar, the provider and service are named, the stars work with the keyboard and a tap, the
rating is stored once; a used, changed or expired link gets a plain message. Not indexed."""

from __future__ import annotations

import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend" / "tests"))
from delivery_support import form_submission
from offer_rows import add_offer, portal_provider

from servicematch.catalog.loader import load_catalog
from servicematch.intake.models import Lead
from servicematch.portal.models import ProviderReview
from servicematch.portal.reviews import review_url
from servicematch.routing.models import OfferStatus
from servicematch.settings import Settings

pytestmark = pytest.mark.browser


@pytest.fixture
def review_link(live_server: str, server_engine):
    """review_link(**when) -> (the /review#token address, the provider's id): an accepted offer of a
    lead sent through the API, signed with the server's (test) secret."""
    settings = Settings(environment="test", site_origin=live_server)
    service = load_catalog(settings.catalog_dir).find("hvac", "services")

    def make(provider_name: str = "Cool Air LLC", **when) -> tuple[str, str]:
        request_id = str(uuid.uuid4())
        body = form_submission(service, request_id=request_id, phone=f"512555{uuid.uuid4().int % 10_000:04d}")
        assert httpx.post(f"{live_server}/api/submit-form", json=body, timeout=30).status_code in (200, 201, 202)
        with Session(server_engine) as session:
            lead_id = session.scalar(select(Lead.id).where(Lead.request_id == request_id))
            provider = portal_provider(session, provider_name)
            offer = add_offer(session, lead_id=lead_id, provider_id=provider.id, status=OfferStatus.ACCEPTED,
                              at=datetime.now(UTC) - timedelta(days=8))
            session.commit()
            return review_url(settings=settings, offer_id=offer.id, **when), provider.id

    return make


def _reviews_of(server_engine, provider_id: str) -> list[ProviderReview]:
    with Session(server_engine) as session:
        return list(session.scalars(select(ProviderReview).where(ProviderReview.provider_id == provider_id)))


def test_a_consumer_rates_with_the_keyboard_once_and_the_token_leaves_the_address_bar(
        page: Page, review_link, server_engine, save_screenshot) -> None:
    link, provider_id = review_link()
    page.goto(link)
    expect(page.get_by_text("How did Cool Air LLC do with your HVAC request?")).to_be_visible()
    assert "#" not in page.url and page.url.endswith("/review")  # the token is out of the address bar
    assert page.locator('meta[name="robots"][content*="noindex"]').count() == 1
    save_screenshot(page, "review-page")

    # Send without stars: the page says what is missing, nothing is stored.
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("Choose from 1 to 5 stars.").first).to_be_visible()
    assert _reviews_of(server_engine, provider_id) == []

    # The keyboard: into the group, then the arrows move the choice.
    page.get_by_role("radio", name="1 star: Poor").focus()
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("radio", name="4 stars: Very good")).to_be_checked()
    expect(page.get_by_text("4 of 5: Very good")).to_be_visible()
    page.get_by_label("A few words").fill("Came the same day and fixed it.")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_role("status")).to_contain_text("Thank you")
    save_screenshot(page, "review-thanks")
    (review,) = _reviews_of(server_engine, provider_id)
    assert (review.stars, review.text, review.city, review.state) == (4, "Came the same day and fixed it.",
                                                                      "Austin", "TX")

    # The same link again, as from the e-mail in a new load: already rated, no form.
    page.goto("about:blank")
    page.goto(link)
    expect(page.get_by_role("status")).to_contain_text("already rated")
    expect(page.get_by_role("button", name="Send")).to_have_count(0)


def test_a_tap_on_a_star_chooses_it(page: Page, review_link, server_engine) -> None:
    link, provider_id = review_link("Lone Star Heating")
    page.goto(link)
    star = page.locator("label").filter(has=page.get_by_role("radio", name="5 stars: Excellent"))
    box = star.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44  # big enough for a thumb
    star.click()
    expect(page.get_by_role("radio", name="5 stars: Excellent")).to_be_checked()
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_role("status")).to_contain_text("Thank you")
    assert [review.stars for review in _reviews_of(server_engine, provider_id)] == [5]


def test_changed_expired_and_missing_links_get_a_plain_message(page: Page, review_link, save_screenshot) -> None:
    link, _ = review_link()
    page.goto(link[:-3] + "xyz")
    expect(page.get_by_role("alert")).to_contain_text("This link is not valid")
    expired, _ = review_link(now=datetime.now(UTC) - timedelta(days=61))
    page.goto("about:blank")
    page.goto(expired)
    expect(page.get_by_role("alert")).to_contain_text("This link has expired")
    save_screenshot(page, "review-expired")
    page.goto("/review")
    expect(page.get_by_role("alert")).to_contain_text("needs the link from our e-mail")


def test_the_review_page_is_not_in_the_sitemap(live_server: str) -> None:
    sitemap = httpx.get(f"{live_server}/sitemap.xml", timeout=30).text
    assert "/review" not in sitemap and "/privacy-policy" in sitemap
