"""Header menus (desktop dropdowns, phone slide-in) and the marketing-partners modal."""

from __future__ import annotations

import re

import pytest
from funnel_steps import (
    Contact,
    advance_to,
    is_desktop,
    lead_form_steps,
    service_config,
    wait_until_interactive,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_desktop_menu_opens_on_hover_and_closes_after_a_delay(page: Page, save_screenshot):
    if not is_desktop(page):
        pytest.skip("the dropdown menu is the desktop layout")
    page.goto("/")
    wait_until_interactive(page)
    menu = page.get_by_role("navigation", name="Main")
    legal = menu.get_by_role("button", name="Legal")
    legal.hover()
    expect(legal).to_have_attribute("aria-expanded", "true")
    bankruptcy = menu.get_by_role("link", name="Bankruptcy")
    expect(bankruptcy).to_be_visible()
    save_screenshot(page, "menu-open")

    # Leaving and coming back within the 300 ms delay keeps the dropdown open.
    page.mouse.move(5, 600)
    bankruptcy.hover()
    expect(legal).to_have_attribute("aria-expanded", "true")

    # Leaving for good closes it once the delay has passed.
    page.mouse.move(5, 600)
    expect(legal).to_have_attribute("aria-expanded", "false")
    expect(bankruptcy).to_be_hidden()


def test_desktop_menu_opens_by_keyboard(page: Page):
    if not is_desktop(page):
        pytest.skip("the dropdown menu is the desktop layout")
    page.goto("/")
    menu = page.get_by_role("navigation", name="Main")
    insurance = menu.get_by_role("button", name="Insurance")
    insurance.focus()
    page.keyboard.press("Enter")
    expect(insurance).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Escape")
    expect(insurance).to_have_attribute("aria-expanded", "false")
    page.keyboard.press("ArrowDown")
    expect(menu.get_by_role("link", name="All Insurance")).to_be_focused()
    page.keyboard.press("Tab")
    expect(menu.get_by_role("link", name="Auto Insurance")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile("/insurance/auto$"))


def test_phone_menu_slides_in_and_navigates(page: Page, save_screenshot):
    if is_desktop(page):
        pytest.skip("the slide-in menu is the phone layout")
    page.goto("/")
    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
    page.get_by_role("button", name="Open menu").click()
    panel = page.get_by_role("dialog", name="Menu")
    expect(panel).to_be_visible()
    expect(panel.get_by_role("button", name="Close menu")).to_be_focused()
    save_screenshot(page, "menu-phone")
    panel.get_by_role("link", name="Gutters").click()
    expect(page).to_have_url(re.compile("/services/gutters$"))
    expect(panel).to_be_hidden()


def test_marketing_partners_modal_opens_over_the_form_and_goes_back(page: Page, live_server: str,
                                                                    save_screenshot):
    service = service_config(live_server, "hvac", "services")
    steps = lead_form_steps(live_server, service)
    contact = Contact()
    page.goto("/services/hvac")
    advance_to(page, steps, len(steps) - 1, contact)
    phone = page.get_by_label("Phone number", exact=True)
    phone.fill(contact.phone)

    page.get_by_role("link", name="marketing partners").first.click()
    dialog = page.get_by_role("dialog", name="Marketing Partners")
    expect(dialog).to_be_visible()
    expect(page).to_have_url(re.compile("/marketing-partners$"))
    expect(dialog.get_by_text("This list may be updated from time to time.", exact=False)).to_be_visible()
    expect(dialog.get_by_role("listitem").first).to_be_visible()
    save_screenshot(page, "marketing-partners")

    dialog.get_by_role("button", name="Close").first.click()
    expect(dialog).to_be_hidden()
    expect(page).to_have_url(re.compile("/services/hvac$"))
    # The form under the modal kept its place and its answers.
    expect(page.get_by_text(f"Step {len(steps)} of {len(steps)}", exact=True)).to_be_visible()
    expect(phone).not_to_have_value("")


def test_marketing_partners_opened_directly_shows_over_home(page: Page):
    page.goto("/marketing-partners")
    dialog = page.get_by_role("dialog", name="Marketing Partners")
    expect(dialog).to_be_visible()
    expect(page.get_by_role("heading", name="Find Trusted Local Service Professionals", level=1)).to_be_attached()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page).to_have_url(re.compile(r"/$"))
