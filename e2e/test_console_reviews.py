"""Reviews in the console at 390 and 1280 px: an admin filters by provider and hides a review with a
reason (the reason is required; the review then shows as hidden, who hid it and when, and the
hiding is in the audit log); an analyst is told the list is for admins and gets no Hide button."""

from __future__ import annotations

import sys
import uuid
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from console_support import (
    assert_fits_and_tappable,
    controls,
    no_sideways_overflow,
    sign_in,
)
from playwright.sync_api import Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend" / "tests"))

from offer_rows import portal_provider

from servicematch.access.models import AuditEntry
from servicematch.kernel.clock import utcnow
from servicematch.portal.models import ProviderReview

pytestmark = pytest.mark.browser
TAP_PX = 44


@dataclass(frozen=True)
class Rated:
    provider_name: str
    other_name: str
    one_star: str  # review ids
    five_stars: str


@pytest.fixture
def rated(server_engine) -> Rated:
    """Two providers' reviews as the review page stores them: one provider rated 1 and then 5 stars
    (the newer first in the list), another rated 4."""
    tag = uuid.uuid4().hex[:6]
    with Session(server_engine) as session:
        provider = portal_provider(session, f"Review Roofing {tag}")
        other = portal_provider(session, f"Other Plumbing {tag}")
        now = utcnow()
        one_star = ProviderReview(provider_id=provider.id, stars=1, text="Never showed up.\nCalled twice.",
                                  city="Austin", state="TX", created_at=now - timedelta(days=2))
        five_stars = ProviderReview(provider_id=provider.id, stars=5, text="Fixed the leak in an hour.",
                                    city="Round Rock", state="TX", created_at=now - timedelta(hours=3))
        session.add_all([one_star, five_stars, ProviderReview(provider_id=other.id, stars=4, text="Fair price.",
                                                              city="Dallas", state="TX", created_at=now)])
        session.commit()
        return Rated(provider_name=provider.name, other_name=other.name, one_star=one_star.id,
                     five_stars=five_stars.id)


def assert_big_enough(page: Page) -> None:
    """Every control on the page, the console's navigation included, is at least 44 px high."""
    for control in controls(page, ("button", "link", "combobox", "textbox")):
        if control.visible:
            assert control.box["height"] >= TAP_PX, f"{control.name} is {control.box['height']} px high"


def test_an_admin_hides_a_review_with_a_reason(page: Page, operators, rated: Rated, server_engine, save_screenshot):
    sign_in(page, operators.admin, path="/admin")
    page.get_by_role("navigation", name="Console").get_by_role("link", name="Reviews").click()
    expect(page.get_by_role("heading", name="Reviews", level=1)).to_be_visible()
    name = rated.provider_name
    page.get_by_label("Provider").select_option(label=name)
    cards = page.get_by_role("region")
    expect(cards).to_have_count(2)
    # Newest first: the five stars of three hours ago above the one star of two days ago.
    expect(cards.first).to_have_accessible_name(f"{name}: 5 of 5")
    one_star = page.get_by_role("region", name=f"{name}: 1 of 5")
    expect(one_star).to_contain_text("Never showed up.")
    expect(one_star).to_contain_text("Austin, TX")
    expect(one_star.get_by_role("img", name="1 of 5 stars")).to_be_visible()
    expect(one_star.get_by_text("shown", exact=True)).to_be_visible()
    expect(page.get_by_role("region", name=f"{rated.other_name}: 4 of 5")).to_have_count(0)
    assert_fits_and_tappable(page, one_star)
    assert_big_enough(page)
    save_screenshot(page, "console-reviews")

    one_star.get_by_role("button", name=f"Hide the review of {name}").click()
    form = one_star.get_by_role("form", name=f"Hide the review of {name}")
    form.get_by_role("button", name="Hide the review").click()  # the reason is required: the browser asks
    expect(one_star.get_by_text("hidden", exact=True)).to_have_count(0)
    form.get_by_label("Why it is hidden (kept in the audit log)").fill("Names the technician in full.")
    assert_fits_and_tappable(page, form)
    assert_big_enough(page)
    form.get_by_role("button", name="Hide the review").click()
    expect(one_star.get_by_role("status")).to_have_text(
        f"Hidden: left out of {name}'s rating and list. The reason is in the audit log.")
    expect(one_star.get_by_text("hidden", exact=True)).to_be_visible()
    expect(one_star).to_contain_text(f"by {operators.admin}")
    expect(one_star.get_by_role("button")).to_have_count(0)
    save_screenshot(page, "console-reviews-hidden")

    with Session(server_engine) as session:
        review = session.get(ProviderReview, rated.one_star)
        assert review.hidden_at is not None and review.hidden_by == operators.admin
        assert session.get(ProviderReview, rated.five_stars).hidden_at is None
        entry = session.scalar(select(AuditEntry).where(AuditEntry.action == "review.hide",
                                                        AuditEntry.target == rated.one_star))
        assert entry.operator_email == operators.admin and entry.detail["reason"] == "Names the technician in full."

    page.reload()  # the hiding lasts: after a reload the list still says so, with the time
    page.get_by_label("Provider").select_option(label=name)
    expect(page.get_by_role("region", name=f"{name}: 1 of 5")).to_contain_text("Hidden")
    expect(page.get_by_role("region", name=f"{name}: 5 of 5").get_by_text("shown", exact=True)).to_be_visible()


def test_an_analyst_is_told_reviews_are_for_admins(page: Page, operators, rated: Rated):
    sign_in(page, operators.analyst, path="/admin/reviews")
    expect(page.get_by_role("heading", name="Reviews", level=1)).to_be_visible()
    expect(page.get_by_text("Only admins may read and hide consumers' reviews.", exact=False)).to_be_visible()
    expect(page.get_by_text(rated.provider_name)).to_have_count(0)
    expect(page.get_by_role("main").get_by_role("button")).to_have_count(0)
    assert no_sideways_overflow(page)
