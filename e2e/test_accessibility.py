"""axe-core finds no WCAG 2.2 AA violation on any screen type, at phone and desktop widths."""

from __future__ import annotations

import pytest
from axe_audit import expect_no_violations
from funnel_steps import (
    Contact,
    advance_to,
    answer_step,
    call_flow_steps,
    expect_step,
    is_desktop,
    lead_form_steps,
    service_config,
    thank_you_heading,
    wait_until_drawn,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# Path and the level-1 heading that shows once the screen has rendered.
PAGES = [
    ("/", "Find Trusted Local Service Professionals"),
    ("/category/services", None),
    ("/category/legal", None),
    ("/services/roofing", None),
    ("/services/roofing/tx", None),
    ("/legal/auto-accident", None),
    ("/legal/auto-accident/tx", None),
    ("/insurance/final-expense-ib", None),
    ("/about-us", None),
    ("/partner-with-us", None),
    ("/privacy-policy", None),
    ("/disqualified", "We're sorry..."),
    ("/services/no-such-service", "Service Not Found"),
    ("/no-such-page", "Unexpected Application Error!"),
]


def open_screen(page: Page, path: str, heading: str | None) -> None:
    page.goto(path)
    # Audit what the app drew, not the moment between the server's heading and the page.
    wait_until_drawn(page, page.get_by_role("heading", name=heading, exact=True) if heading else None)
    if path.startswith(("/services/", "/legal/", "/insurance/")) and "no-such" not in path:
        expect(page.get_by_text("Step 1 of", exact=False)).to_be_visible()


@pytest.mark.parametrize(("path", "heading"), PAGES, ids=[path for path, _ in PAGES])
def test_page_has_no_violations(page: Page, path: str, heading: str | None):
    open_screen(page, path, heading)
    expect_no_violations(page, path, with_page_structure=True)


def test_open_menus_have_no_violations(page: Page):
    page.goto("/")
    if is_desktop(page):
        legal = page.get_by_role("navigation", name="Main").get_by_role("button", name="Legal")
        legal.focus()
        page.keyboard.press("Enter")
        expect(legal).to_have_attribute("aria-expanded", "true")
        expect_no_violations(page, "the desktop dropdown")
    else:
        page.get_by_role("button", name="Open menu").click()
        expect(page.get_by_role("dialog", name="Menu")).to_be_visible()
        expect_no_violations(page, "the phone slide-in menu")


def test_marketing_partners_modal_has_no_violations(page: Page, live_server: str):
    steps = lead_form_steps(live_server, service_config(live_server, "flooring"))
    page.goto("/form/flooring")
    advance_to(page, steps, len(steps) - 1)
    page.get_by_role("link", name="marketing partners").click()
    expect(page.get_by_role("dialog", name="Marketing Partners")).to_be_visible()
    expect_no_violations(page, "the marketing-partners modal")


@pytest.mark.clock_installed  # thank_you_heading moves the clock past the loader
def test_every_lead_form_step_and_thank_you_have_no_violations(page: Page, live_server: str):
    """auto-accident has every lead-form field type: radio, date dropdowns, textarea, text, email,
    the state select, phone and the consent step."""
    steps = lead_form_steps(live_server, service_config(live_server, "auto-accident"))
    contact = Contact()
    page.goto("/form/auto-accident")
    for index, step_fields in enumerate(steps):
        expect_step(page, index + 1, len(steps))
        kinds = "+".join(sorted({f["type"] for f in step_fields}))
        expect_no_violations(page, f"lead form step {index + 1} ({kinds})")
        answer_step(page, step_fields, contact, last=index == len(steps) - 1)
    expect(page.get_by_text("Processing your answers...")).to_be_visible()
    expect_no_violations(page, "the thank-you loader")
    thank_you_heading(page)
    expect_no_violations(page, "the thank-you screen")


def test_lead_form_field_errors_have_no_violations(page: Page, live_server: str):
    steps = lead_form_steps(live_server, service_config(live_server, "hvac"))
    base_step = next(i for i, fields in enumerate(steps) if any(f["id"] == "email" for f in fields))
    page.goto("/form/hvac")
    advance_to(page, steps, base_step)
    page.get_by_label("Email Address", exact=True).fill("not-an-email")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("This field is required.").first).to_be_visible()
    expect_no_violations(page, "the contact step showing field errors")


def test_disqualification_screen_has_no_violations(page: Page, live_server: str):
    page.goto("/form/bankruptcy")
    page.get_by_role("radio", name="Under $10,000", exact=True).click()
    expect(page.get_by_role("heading", name="We're sorry...")).to_be_visible()
    expect_no_violations(page, "the in-page disqualification screen")


def test_every_call_flow_step_and_call_thanks_have_no_violations(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    contact = Contact()
    page.goto("/call/final-expense-ib")
    for index, step_fields in enumerate(steps):
        expect_step(page, index + 1, len(steps))
        kinds = "+".join(sorted({f["type"] for f in step_fields}))
        expect_no_violations(page, f"call flow step {index + 1} ({kinds})")
        answer_step(page, step_fields, contact, last=index == len(steps) - 1)
    expect(page.get_by_role("heading", name="Thank you!", exact=False)).to_be_visible(timeout=10_000)
    expect_no_violations(page, "the call-thanks screen")
