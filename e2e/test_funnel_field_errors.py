"""The field messages and alerts of spec section 8, with the server's real checks where it has them."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest
from funnel_steps import (
    Contact,
    advance_to,
    configure_public,
    expect_step,
    fill_field,
    lead_form_steps,
    service_config,
)
from playwright.sync_api import Page, Route, expect

pytestmark = pytest.mark.browser

CONTACT = Contact(email="prefill@example.com")
RED_RING = re.compile(r"(^|\s)ring-red-500(\s|$)")
PREFILL = urlencode({k: getattr(CONTACT, k) for k in
                     ("first", "last", "email", "address1", "city", "state", "zip")})


def open_contact_step(page: Page, live_server: str, query: str = "") -> list[list[dict]]:
    steps = lead_form_steps(live_server, service_config(live_server, "hvac"))
    page.goto(f"/form/hvac{query}")
    advance_to(page, steps, len(steps) - 2)
    return steps


def open_phone_step(page: Page, live_server: str) -> list[list[dict]]:
    steps = open_contact_step(page, live_server, f"?{PREFILL}")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_label("Phone number", exact=True)).to_be_visible()
    return steps


def field_error(page: Page, label: str):
    """The message tied to a field by aria-describedby."""
    control = page.get_by_label(label, exact=True)
    expect(control).to_have_attribute("aria-invalid", "true")
    described = control.get_attribute("aria-describedby")
    return page.locator(f"#{described}")


def test_required_fields_block_next_and_the_first_empty_one_gets_focus(page: Page, live_server: str):
    steps = open_contact_step(page, live_server)
    page.get_by_role("button", name="Next").click()
    first = page.get_by_label("First Name", exact=True)
    expect(first).to_be_focused()
    expect(first).to_have_class(RED_RING)
    page.get_by_label("First Name", exact=True).fill("Ann")
    expect(first).not_to_have_class(RED_RING)
    expect_step(page, len(steps) - 1, len(steps))


def test_short_phone_number(page: Page, live_server: str):
    open_phone_step(page, live_server)
    page.get_by_label("Phone number", exact=True).fill("51255")
    page.get_by_role("checkbox").check()
    page.get_by_role("button", name="Submit").click()
    expect(field_error(page, "Phone number")).to_have_text("Phone number must be at least 10 digits")


def test_invalid_phone_number_from_the_server(page: Page, live_server: str):
    open_phone_step(page, live_server)
    page.get_by_label("Phone number", exact=True).fill("1234567890")
    page.get_by_role("checkbox").check()
    page.get_by_role("button", name="Submit").click()
    expect(field_error(page, "Phone number")).to_have_text("Invalid phone number")
    # Editing the field clears its message.
    page.get_by_label("Phone number", exact=True).fill("5125550142")
    expect(page.get_by_text("Invalid phone number")).to_have_count(0)


def test_phone_input_keeps_eleven_digits_and_shows_plus_one(page: Page, live_server: str):
    open_phone_step(page, live_server)
    phone = page.get_by_label("Phone number", exact=True)
    phone.fill("1 (512) 555-0142 999")
    expect(phone).to_have_value("+1 (512) 555-0142")
    phone.fill("512-555-0142-7")
    expect(phone).to_have_value("(512) 555-0142")


def test_invalid_email_format(page: Page, live_server: str):
    open_contact_step(page, live_server, "?" + PREFILL.replace("prefill%40example.com", "maria%40example"))
    page.get_by_role("button", name="Next").click()
    expect(field_error(page, "Email Address")).to_have_text("Invalid email format")


def test_invalid_email_address_when_the_service_gives_no_reason(page: Page, live_server: str):
    def refuse_email(route: Route):
        body = json.loads(route.request.post_data or "{}")
        if body.get("type") == "email":
            route.fulfill(json={"isValid": False})
        else:
            route.continue_()

    page.route("**/api/validate", refuse_email)
    open_contact_step(page, live_server, f"?{PREFILL}")
    page.get_by_role("button", name="Next").click()
    expect(field_error(page, "Email Address")).to_have_text("Invalid email address")


def test_a_failing_validation_service_lets_the_visitor_through(page: Page, live_server: str):
    page.route("**/api/validate", lambda route: route.fulfill(status=503, json={"error": "down"}))
    open_phone_step(page, live_server)


def test_submit_error_alert_reenables_the_button(page: Page, live_server: str):
    held: list[Route] = []
    page.route("**/api/submit-form", lambda route: held.append(route))
    open_phone_step(page, live_server)
    page.get_by_label("Phone number", exact=True).fill("5125550142")
    submit = page.get_by_role("button", name="Submit")
    expect(submit).to_be_disabled()
    page.get_by_role("checkbox").check()
    submit.click()
    submitting = page.get_by_role("button", name="Submitting...")
    expect(submitting).to_be_disabled()
    expect(page.get_by_role("button", name="Back")).to_be_disabled()
    held[0].fulfill(status=500, json={"error": "boom", "fields": {}})
    expect(page.get_by_role("alert")).to_have_text("There was an error submitting the form. Please try again.")
    expect(page.get_by_role("button", name="Submit")).to_be_enabled()


def test_server_refusal_puts_messages_under_the_fields(page: Page, live_server: str):
    page.route("**/api/submit-form", lambda route: route.fulfill(
        status=422, json={"error": "The request is not valid.", "fields": {"consumer.zip": "ZIP code must be exactly 5 digits"}}))
    open_phone_step(page, live_server)
    page.get_by_label("Phone number", exact=True).fill("5125550142")
    page.get_by_role("checkbox").check()
    page.get_by_role("button", name="Submit").click()
    expect(page.get_by_role("alert")).to_have_text("There was an error submitting the form. Please try again.")
    expect(field_error(page, "ZIP Code")).to_have_text("ZIP code must be exactly 5 digits")


RECAPTCHA_STUB = """
window.grecaptcha = {
  ready: (callback) => callback(),
  execute: () => Promise.reject(new Error('no token')),
};
"""


def test_recaptcha_without_a_token_stops_the_submission(page: Page, live_server: str):
    submitted: list[str] = []
    configure_public(page, recaptchaSiteKey="test-site-key")
    page.route("https://www.google.com/recaptcha/**",
               lambda route: route.fulfill(body=RECAPTCHA_STUB, content_type="text/javascript"))
    page.on("request", lambda request: submitted.append(request.url) if "submit-form" in request.url else None)
    open_phone_step(page, live_server)
    page.get_by_label("Phone number", exact=True).fill("5125550142")
    page.get_by_role("checkbox").check()
    page.get_by_role("button", name="Submit").click()
    expect(page.get_by_role("alert")).to_have_text("reCAPTCHA verification failed. Please try again.")
    expect(page.get_by_role("button", name="Submit")).to_be_enabled()
    assert submitted == []


def test_a_zip_in_another_state_is_explained_on_the_address_step(page: Page, live_server: str):
    steps = open_contact_step(page, live_server)
    answer_contact = Contact(state="TX", zip="90210")
    for f in steps[-2]:
        fill_field(page, f, answer_contact)
    page.get_by_role("button", name="Next").click()
    expect(field_error(page, "ZIP Code")).to_have_text("90210 is in California, not Texas")
    expect(field_error(page, "ZIP Code")).to_be_in_viewport()
    expect_step(page, len(steps) - 1, len(steps))
    page.get_by_label("ZIP Code", exact=True).fill("78701")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_label("Phone number", exact=True)).to_be_visible()


def test_a_washington_dc_address_fills_the_state(page: Page, live_server: str):
    steps = open_contact_step(page, live_server)
    state = page.get_by_label("State", exact=True)
    expect(state.get_by_role("option", name="District of Columbia")).to_have_count(1)
    dc = Contact(address1="1600 Pennsylvania Ave NW", city="Washington", state="DC", zip="20500")
    for f in steps[-2]:
        fill_field(page, f, dc)
    expect(state).to_have_value("DC")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_label("Phone number", exact=True)).to_be_visible()
