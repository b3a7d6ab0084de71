"""Defects found by trying the funnel as a visitor (issue 10, section 1): dates, Back, phone and
e-mail entry, the 429 message, the call flow's retries and the thank-you page opened directly."""

from __future__ import annotations

import json
from datetime import date

import pytest
from funnel_steps import (
    Contact,
    advance_to,
    call_flow_steps,
    complete_steps,
    expect_step,
    lead_form_steps,
    pick_date,
    service_config,
    wait_until_interactive,
)
from playwright.sync_api import Page, Route, expect

pytestmark = pytest.mark.browser

DOB = "What is your date of birth?"
INCIDENT = "When did the accident happen?"


def field_message(page: Page, label: str):
    """The message line of a date field's group (announced through aria-live)."""
    return page.get_by_role("group", name=label).locator("p[aria-live]")


def open_date_step(page: Page, live_server: str, slug: str, label: str) -> tuple[list[list[dict]], int]:
    steps = lead_form_steps(live_server, service_config(live_server, slug))
    index = next(i for i, fields in enumerate(steps) if any(f["label"] == label for f in fields))
    page.goto(f"/form/{slug}")
    advance_to(page, steps, index)
    return steps, index


def test_a_month_alone_does_not_pass_the_date_step(page: Page, live_server: str):
    steps, index = open_date_step(page, live_server, "ssdi", DOB)
    page.get_by_label(f"{DOB} Month").select_option(label="March")
    page.get_by_role("button", name="Next").click()
    expect(field_message(page, DOB)).to_have_text("Choose a month, day and year")
    expect_step(page, index + 1, len(steps))


def test_31_february_is_refused_on_its_step(page: Page, live_server: str):
    steps, index = open_date_step(page, live_server, "ssdi", DOB)
    pick_date(page, DOB, "1980", "February", "31")
    page.get_by_role("button", name="Next").click()
    expect(field_message(page, DOB)).to_have_text("Choose a date that exists: February 1980 has 29 days")
    expect_step(page, index + 1, len(steps))


def test_a_child_cannot_pass_the_birth_date_step(page: Page, live_server: str):
    steps, index = open_date_step(page, live_server, "ssdi", DOB)
    pick_date(page, DOB, "2015", "June", "15")
    page.get_by_role("button", name="Next").click()
    expect(field_message(page, DOB)).to_have_text("You must be 18 or older to request this service")
    expect_step(page, index + 1, len(steps))
    # Correcting the answer clears the message and moves on.
    page.get_by_label(f"{DOB} Year").select_option("1970")
    expect(field_message(page, DOB)).to_have_text("")
    page.get_by_role("button", name="Next").click()
    expect_step(page, index + 2, len(steps))


def test_a_future_incident_date_is_refused_on_its_step(page: Page, live_server: str):
    steps, index = open_date_step(page, live_server, "auto-accident", INCIDENT)
    today = date.today()
    # The dropdown offers no later year: a later month of this year, or tomorrow, is the future.
    future = date(today.year, 12, 31) if today < date(today.year, 12, 31) else None
    if future is None:
        pytest.skip("no later day exists in this year's dropdown on 31 December")
    pick_date(page, INCIDENT, str(future.year), future.strftime("%B"), f"{future.day:02d}")
    page.get_by_role("button", name="Next").click()
    expect(field_message(page, INCIDENT)).to_have_text("Choose a date in the past")
    expect_step(page, index + 1, len(steps))


def test_the_same_answer_after_back_advances_again(page: Page, live_server: str):
    service = service_config(live_server, "hvac")
    steps = lead_form_steps(live_server, service)
    first = next(f for f in steps[0] if f["type"] == "radio")
    answer = next(o for o in first["options"] if o not in first["disqualifiers"])
    page.goto("/form/hvac")
    page.get_by_role("radio", name=answer, exact=True).click()
    expect_step(page, 2, len(steps))
    page.get_by_role("button", name="Back").click()
    expect_step(page, 1, len(steps))
    page.get_by_role("radio", name=answer, exact=True).click()
    expect_step(page, 2, len(steps))


def open_phone_step(page: Page, live_server: str) -> list[list[dict]]:
    steps = lead_form_steps(live_server, service_config(live_server, "hvac"))
    page.goto("/form/hvac")
    advance_to(page, steps, len(steps) - 1)
    return steps


def test_the_phone_number_formats_as_it_is_typed(page: Page, live_server: str):
    open_phone_step(page, live_server)
    phone = page.get_by_label("Phone number", exact=True)
    phone.press_sequentially("5125550142")
    expect(phone).to_have_value("(512) 555-0142")
    phone.fill("")
    phone.press_sequentially("15125550142")
    expect(phone).to_have_value("+1 (512) 555-0142")
    # Deleting through the punctuation still removes digits.
    for _ in range(5):
        phone.press("Backspace")
    expect(phone).to_have_value("+1 (512) 55")


def test_a_likely_email_typo_gets_a_one_tap_suggestion(page: Page, live_server: str):
    steps = lead_form_steps(live_server, service_config(live_server, "hvac"))
    page.goto("/form/hvac")
    advance_to(page, steps, len(steps) - 2)
    email = page.get_by_label("Email Address", exact=True)
    email.fill("maria.garcia@gmial.com")
    email.blur()
    suggestion = page.get_by_role("button", name="Did you mean maria.garcia@gmail.com?")
    expect(suggestion).to_be_visible()
    suggestion.click()
    expect(email).to_have_value("maria.garcia@gmail.com")
    expect(suggestion).to_be_hidden()


def test_a_429_says_what_happened_and_when_to_try_again(page: Page, live_server: str):
    steps = lead_form_steps(live_server, service_config(live_server, "hvac"))

    def too_many(route: Route) -> None:
        route.fulfill(status=429, headers={"Retry-After": "540"}, content_type="application/json",
                      body=json.dumps({"detail": "Too many submissions", "fields": {}}))

    page.route("**/api/submit-form", too_many)
    page.goto("/form/hvac")
    complete_steps(page, steps, Contact())
    alert = page.get_by_role("alert").filter(has_text="requests")
    expect(alert).to_have_text(
        "We have received too many requests from your connection. Please try again in 9 minutes.")


def test_the_call_flow_retries_with_one_request_id(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    seen: list[str] = []

    def fail_first(route: Route) -> None:
        seen.append(json.loads(route.request.post_data or "{}").get("requestId", ""))
        if len(seen) == 1:
            route.fulfill(status=503, content_type="application/json", body='{"detail": "busy"}')
        else:
            route.continue_()

    page.route("**/api/call-submit", fail_first)
    page.goto("/call/final-expense-ib")
    complete_steps(page, steps, Contact())
    expect(page.get_by_role("heading", name="Thank you! We have your request.")).to_be_visible(timeout=10_000)
    assert len(seen) == 2
    assert seen[0] and seen[0] == seen[1]


def test_thank_you_opened_directly_goes_home(page: Page, live_server: str):
    page.goto("/thank-you")
    expect(page).to_have_url(f"{live_server}/")
    expect(page.get_by_text("Your request has been received")).to_have_count(0)


@pytest.mark.parametrize("path", ["/legal/auto-accident", "/services/roofing"])
def test_radio_circles_keep_their_size_on_options_of_two_lines(page: Page, live_server: str, path: str):
    page.goto(path)
    for number in (1, 2):
        expect(page.get_by_text(f"Step {number} of", exact=False)).to_be_visible()
        wait_until_interactive(page)
        radios = page.get_by_role("radio")
        boxes = [radios.nth(index).bounding_box() for index in range(radios.count())]
        assert boxes and all((round(b["width"]), round(b["height"])) == (20, 20) for b in boxes), (number, boxes)
        radios.first.click()


def test_a_step_change_shows_its_step_number_below_the_sticky_header(page: Page, live_server: str):
    page.goto("/services/roofing")
    expect(page.get_by_text("Step 1 of", exact=False)).to_be_visible()
    wait_until_interactive(page)
    header = page.get_by_role("banner")
    for number in (2, 3):
        page.get_by_role("radio").first.click()
        progress = page.get_by_text(f"Step {number} of", exact=False)
        expect(progress).to_be_in_viewport()
        # Smooth scrolling: wait until the page has come to rest, then compare the positions.
        page.wait_for_function("() => new Promise(resolve => { const y = scrollY; "
                               "requestAnimationFrame(() => requestAnimationFrame(() => resolve(scrollY === y))) })")
        assert progress.bounding_box()["y"] >= header.bounding_box()["y"] + header.bounding_box()["height"], number
