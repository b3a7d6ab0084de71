"""The home page's address search: suggestions ranked by what was typed, a complete typed address
accepted without a pick, and its message under the address field."""

from __future__ import annotations

import re

import pytest
from funnel_steps import (
    advance_to,
    call_flow_steps,
    expect_step,
    lead_form_steps,
    service_config,
    wait_until_interactive,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def suggestions(page: Page):
    return page.get_by_role("listbox", name="Your address suggestions").get_by_role("option")


def test_suggestions_put_the_likely_city_first(page: Page):
    page.goto("/")
    # The first suggestion of a fresh server also loads the ZIP directory.
    expect(page.get_by_role("combobox", name="Your address")).to_be_visible()
    page.get_by_role("combobox", name="Your address").fill("500 Congress Ave Austin")
    expect(suggestions(page).first).to_have_text("Austin, TX, 500 Congress Ave — as typed", timeout=15_000)


def test_a_street_in_a_city_of_many_zips_is_offered_once_without_a_zip(page: Page):
    page.goto("/")
    page.get_by_role("combobox", name="Your address").fill("500 Congress Ave, Austin, TX")
    expect(suggestions(page)).to_have_text(["Austin, TX, 500 Congress Ave — as typed"])


def test_a_typed_street_is_offered_as_typed_not_as_a_found_address(page: Page):
    """Every Springfield is a place the ZIP data knows; the street is only what the visitor typed."""
    page.goto("/")
    page.get_by_role("combobox", name="Your address").fill("123 Main St, Springfield")
    options = suggestions(page)
    expect(options.first).to_be_visible(timeout=15_000)
    assert options.count() > 1
    for index in range(options.count()):
        expect(options.nth(index)).to_have_text(re.compile(r"^Springfield, [A-Z]{2}.*, 123 Main St — as typed$"))
    page.screenshot(path=f"/tmp/funnel-shots/suggestions-as-typed-{page.viewport_size['width']}.png")


def test_a_pick_without_a_zip_asks_for_it(page: Page, live_server: str):
    page.goto("/")
    address = page.get_by_role("combobox", name="Your address")
    address.fill("1600 Pennsylvania Ave NW, Washington, DC")
    suggestions(page).filter(has_text="Washington, DC").first.click()
    expect(address).to_have_value("1600 Pennsylvania Ave NW, Washington, DC")
    # The ZIP is asked for at once, in words that are read out, and takes the focus.
    zip_field = page.get_by_role("textbox", name="ZIP code")
    expect(zip_field).to_be_visible()
    expect(zip_field).to_be_focused()
    prompt = page.locator(f"#{zip_field.get_attribute('aria-describedby')}")
    expect(prompt).to_have_text("Enter the ZIP code of this address: Washington, DC has more than one.")
    expect(prompt).to_have_attribute("aria-live", "polite")
    page.screenshot(path=f"/tmp/funnel-shots/zip-prompt-{page.viewport_size['width']}.png")
    # A ZIP of another state is refused with where it is.
    zip_field.fill("78701")
    expect(prompt).to_have_text("78701 is in Austin, TX, not Washington, DC. Please check it.")
    zip_field.fill("20500")
    expect(address).to_have_value("1600 Pennsylvania Ave NW, Washington, DC 20500")
    expect(zip_field).to_have_count(0)

    page.get_by_label("Service", exact=True).select_option(label="Roofing")
    page.get_by_role("button", name="Get Quotes").click()
    expect(page).to_have_url(f"{live_server}/services/roofing")
    stored = page.evaluate("JSON.parse(localStorage.getItem('serviceMatchAddress'))")
    assert stored == {"address1": "1600 Pennsylvania Ave NW", "city": "Washington", "state": "DC", "zip": "20500"}


def test_a_pick_in_the_call_flow_asks_for_the_zip_too(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    page.goto("/call/final-expense-ib")
    advance_to(page, steps, 3)
    page.get_by_label("First Name", exact=True).fill("Maria")
    page.get_by_label("Last Name", exact=True).fill("Garcia")
    address = page.get_by_role("combobox", name="Home Address")
    address.fill("1600 Pennsylvania Ave NW, Washington, DC")
    page.get_by_role("listbox", name="Home Address suggestions").get_by_role("option").first.click()
    expect(page.get_by_role("textbox", name="ZIP code")).to_be_focused()
    # Without the ZIP the step does not go on, and says why.
    page.get_by_role("button", name="Next").click()
    message = page.locator(f"#{address.get_attribute('aria-describedby')}")
    expect(message).to_have_text("Add the 5-digit ZIP code to your address.")
    page.get_by_role("textbox", name="ZIP code").fill("20500")
    expect(address).to_have_value("1600 Pennsylvania Ave NW, Washington, DC 20500")
    page.get_by_role("button", name="Next").click()
    expect_step(page, 5, len(steps))


def test_a_picked_washington_dc_address_fills_the_form_with_the_zip_asked_for(page: Page, live_server: str):
    page.goto("/")
    address = page.get_by_role("combobox", name="Your address")
    address.fill("1600 Pennsylvania Ave NW, Washington, DC")
    suggestions(page).filter(has_text="Washington, DC").first.click()
    page.get_by_role("textbox", name="ZIP code").fill("20500")
    # The pick fills the field and stays on the page; Get Quotes goes, once a service is chosen too.
    expect(address).to_have_value("1600 Pennsylvania Ave NW, Washington, DC 20500")
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
    expect(page.get_by_label("ZIP Code", exact=True)).to_have_value("20500")


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
    expect(suggestions(page).first).to_have_text("Austin, TX, 500 Congress Ave — as typed", timeout=15_000)
    expect(page.get_by_label("Service", exact=True)).to_have_value("services/roofing")
