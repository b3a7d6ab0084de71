"""The marketing-partners modal at 390 and 1280 px lists the companies that receive leads now: a
buyer added to the live server's database (by `servicematch buyers add`) appears by its name, and
the console's Buyers page lists the published versions."""

from __future__ import annotations

import uuid
from pathlib import Path

import httpx
import pytest
from console_support import (
    assert_fits_and_tappable,
    element_at_centre_is,
    listed_by_server,
    no_sideways_overflow,
    servicematch_cli,
    sign_in,
    wait_until,
)
from playwright.sync_api import Page, expect

# One worker runs the module's tests one after another (--dist loadgroup), so that the buyer is
# added, published and paused once.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("partners-buyer")]

SHOTS = Path("/tmp/partners-shots")
# A ZIP no browser test's lead comes from: the buyer is on the list without taking other tests' leads.
NOBODY_ZIP = "00501"


# One buyer for the module's tests: each `servicematch` command is a process of its own (about
# 1.3 s of CPU), and the first test to run still waits for the server to publish the new name.
@pytest.fixture(scope="module")
def active_buyer(server_database_url: str, live_server: str):
    name = f"Harbor Light Leads {uuid.uuid4().hex[:6].upper()} LLC"
    added = servicematch_cli(server_database_url, "buyers", "add", "--name", name,
                             "--post-url", "http://127.0.0.1:9/post", "--price", "10", "--zips", NOBODY_ZIP)
    buyer_id = added.split()[1]
    yield name
    servicematch_cli(server_database_url, "buyers", "pause", buyer_id)


def test_the_partners_modal_lists_an_active_buyer_by_name(page: Page, live_server: str, active_buyer: str, viewport):
    # The CLI's commit published a new list; each server process reads it again within seconds.
    wait_until(lambda: listed_by_server(live_server, active_buyer), "the server to publish the buyer's name")

    page.goto("/marketing-partners")
    dialog = page.get_by_role("dialog", name="Marketing Partners")
    expect(dialog).to_be_visible()
    partners = dialog.get_by_role("list", name="Marketing partners")
    entry = partners.get_by_role("listitem").filter(has_text=active_buyer)
    expect(entry).to_have_count(1)
    # The catalogue's own partners stay on the list beside the companies.
    expect(partners.get_by_role("listitem").filter(has_text="Acme Home Quotes LLC")).to_have_count(1)
    expect(dialog.get_by_role("status")).to_have_count(0)  # the current list has arrived

    entry.scroll_into_view_if_needed()
    expect(entry).to_be_in_viewport()
    assert element_at_centre_is(page, entry), "the buyer's name is covered"
    assert_fits_and_tappable(page, dialog)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"partners-{viewport['width']}.png"))

    dialog.get_by_role("button", name="Close").last.click()
    expect(dialog).to_be_hidden()


def test_the_console_buyers_page_lists_the_published_versions(page: Page, live_server: str, operators,
                                                              active_buyer: str, viewport):
    wait_until(lambda: listed_by_server(live_server, active_buyer), "the server to publish the buyer's name")
    current = httpx.get(f"{live_server}/api/marketing-partners", timeout=10).json()["version"]

    sign_in(page, operators.analyst, path="/admin/buyers")
    section = page.get_by_role("region", name="Marketing-partners lists")
    newest = section.get_by_role("listitem").filter(has_text=current)
    expect(newest).to_have_count(1)
    expect(newest.get_by_text("current", exact=True)).to_be_visible()
    newest.get_by_text(current).click()  # opens the version's names
    expect(newest.get_by_role("listitem").filter(has_text=active_buyer)).to_be_visible()
    assert no_sideways_overflow(page), "the page scrolls sideways"
    summary = newest.locator("summary")
    summary.scroll_into_view_if_needed()
    assert element_at_centre_is(page, summary) and summary.bounding_box()["height"] >= 40
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"console-lists-{viewport['width']}.png"), full_page=True)
