"""The home page's address search: suggestions ranked by what was typed, a complete typed address
accepted without a pick, and its message under the address field."""

from __future__ import annotations

import re

import pytest
from funnel_steps import advance_to, lead_form_steps, service_config, wait_until_interactive
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def suggestions(page: Page):
    return page.get_by_role("listbox", name="Your address suggestions").get_by_role("option")


def test_suggestions_put_the_likely_city_first(page: Page):
    page.goto("/")
    # The first suggestion of a fresh server also loads the ZIP directory.
    expect(page.get_by_role("combobox", name="Your address")).to_be_visible()
    page.get_by_role("combobox", name="Your address").fill("500 Congress Ave Austin")
    expect(suggestions(page).first).to_have_text("500 Congress Ave, Austin, TX", timeout=15_000)


def test_a_street_in_a_city_of_many_zips_is_offered_once_without_a_zip(page: Page):
    page.goto("/")
    page.get_by_role("combobox", name="Your address").fill("500 Congress Ave, Austin, TX")
    expect(suggestions(page)).to_have_text(["500 Congress Ave, Austin, TX"])


def test_a_picked_washington_dc_address_fills_the_form_and_leaves_the_zip_to_type(page: Page, live_server: str):
    page.goto("/")
    address = page.get_by_role("combobox", name="Your address")
    address.fill("1600 Pennsylvania Ave NW, Washington, DC")
    suggestions(page).filter(has_text=re.compile(r"^1600 Pennsylvania Ave NW, Washington, DC$")).click()
    # The pick fills the field and stays on the page; Get Quotes goes, once a service is chosen too.
    expect(address).to_have_value("1600 Pennsylvania Ave NW, Washington, DC")
    expect(page).to_have_url(f"{live_server}/")
    page.get_by_role("button", name="Get Quotes").click()
    expect(page.get_by_text("Please select a service.")).to_be_visible()
    expect(page).to_have_url(f"{live_server}/")
    page.get_by_label("Service", exact=True).select_option(label="Roofing")
    page.get_by_role("button", name="Get Quotes").click()
    expect(page).to_have_url(f"{live_server}/services/roofing")
    steps = lead_form_steps(live_server, service_config(live_server, "roofing"))
    advance_to(page, steps, len(steps) - 2)
    expect(page.get_by_label("Street Address", exact=True)).to_have_value("1600 Pennsylvania Ave NW")
    expect(page.get_by_label("City", exact=True)).to_have_value("Washington")
    expect(page.get_by_label("State", exact=True)).to_have_value("DC")
    expect(page.get_by_label("ZIP Code", exact=True)).to_have_value("")


def test_a_complete_typed_address_goes_on_without_a_pick(page: Page, live_server: str):
    page.goto("/")
    page.get_by_label("Service", exact=True).select_option(label="Roofing")
    address = page.get_by_role("combobox", name="Your address")
    address.fill("500 Congress Ave, Austin, TX 78701")
    address.press("Escape")
    page.get_by_role("button", name="Get Quotes").click()
    expect(page).to_have_url(f"{live_server}/services/roofing")
    stored = page.evaluate("JSON.parse(localStorage.getItem('serviceMatchAddress'))")
    assert stored == {"address1": "500 Congress Ave", "city": "Austin", "state": "TX", "zip": "78701"}


def test_suggestions_that_arrive_after_escape_leave_the_list_closed(page: Page):
    """A list dismissed while its suggestions were still on their way stays closed: reopened, it
    would cover the button the visitor is about to tap."""
    page.goto("/")
    address = page.get_by_role("combobox", name="Your address")
    wait_until_interactive(page)
    with page.expect_response(lambda response: "/api/address/suggest" in response.url, timeout=15_000):
        address.fill("500 Congress Ave, Austin, TX")
        address.press("Escape")
    # Two frames after the answer React has drawn whatever the answer changed.
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    expect(address).to_have_attribute("aria-expanded", "false")
    expect(page.get_by_role("listbox", name="Your address suggestions")).to_be_hidden()
    address.press_sequentially(" 78701")
    expect(suggestions(page).first).to_be_visible()


def test_an_incomplete_address_is_explained_under_the_address_field(page: Page):
    page.goto("/")
    page.get_by_label("Service", exact=True).select_option(label="Roofing")
    address = page.get_by_role("combobox", name="Your address")
    address.fill("123 Main St")
    address.press("Escape")
    page.get_by_role("button", name="Get Quotes").click()
    message = page.locator(f"#{address.get_attribute('aria-describedby')}")
    expect(message).to_have_text("Add the city and state or the ZIP code, or pick your address from the list.")
    service_box = page.get_by_label("Service", exact=True).bounding_box()
    address_box = address.bounding_box()
    message_box = message.bounding_box()
    assert message_box["y"] >= address_box["y"] + address_box["height"] - 1
    if page.viewport_size["width"] >= 768:
        # Side by side on wide screens: the message starts under the address, not under Service.
        assert message_box["x"] >= service_box["x"] + service_box["width"]
    expect(address).to_have_attribute("aria-invalid", "true")


def test_an_address_typed_before_the_page_is_interactive_is_kept(page: Page):
    # A slow phone: the page's HTML is shown while its script is still on the way.
    page.route("**/assets/*.js", lambda route: (page.wait_for_timeout(1500), route.continue_()))
    page.goto("/", wait_until="commit")
    address = page.get_by_role("combobox", name="Your address")
    address.fill("500 Congress Ave Austin")
    page.get_by_label("Service", exact=True).select_option(label="Roofing")
    assert page.evaluate("document.documentElement.dataset.interactive") is None, "the page was already live"
    expect(suggestions(page).first).to_have_text("500 Congress Ave, Austin, TX", timeout=15_000)
    expect(page.get_by_label("Service", exact=True)).to_have_value("services/roofing")
