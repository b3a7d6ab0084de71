"""The call flow (final-expense-ib) to /call-thanks, its age check, and the pages around it."""

from __future__ import annotations

from datetime import date

import pytest
from funnel_steps import (
    CALL_CENTRE_CLOSED,
    CALL_CENTRE_OPEN,
    Contact,
    advance_to,
    call_flow_steps,
    complete_steps,
    expect_step,
    pick_date,
    service_config,
    stored_leads,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


@pytest.mark.own_context  # sets the clock
def test_call_flow_ends_on_call_thanks_and_is_stored(page: Page, live_server: str, server_engine,
                                                      save_screenshot):
    service = service_config(live_server, "final-expense-ib")
    steps = call_flow_steps(service)
    before = len(stored_leads(server_engine, "final-expense-ib"))
    page.clock.set_fixed_time(CALL_CENTRE_OPEN)
    page.goto("/call/final-expense-ib")
    expect(page.get_by_role("heading", name=service["title"], level=1)).to_be_visible()
    complete_steps(page, steps, Contact(), screenshot=save_screenshot, name="call")

    # A busy server may answer 503 first; the call flow then tries again before moving on. No
    # pretend availability check, wait time or agent count (docs/site-claims.md).
    expect(page.get_by_role("heading", name="Thank you! We have your request.")).to_be_visible(timeout=15_000)
    expect(page.get_by_text("Checking Availability", exact=False)).to_have_count(0)
    expect(page.get_by_text(service["phoneCallToAction"])).to_be_visible()
    expect(page.get_by_text("Call before 6 PM ET to speak with an agent:")).to_be_visible()
    expect(page.get_by_role("link", name=service["ringbaPhoneNumber"])).to_have_attribute("href", "tel:+18885550142")
    expect(page.get_by_text("Wait Time", exact=False)).to_have_count(0)
    expect(page.get_by_text("Agents Available", exact=False)).to_have_count(0)
    expect(page.get_by_role("contentinfo")).to_contain_text(service["disclaimer"])
    save_screenshot(page, "call-thanks")

    leads = stored_leads(server_engine, "final-expense-ib")
    assert len(leads) == before + 1
    assert leads[-1]["flow"] == "call"


@pytest.mark.own_context  # sets the clock
def test_outside_the_call_centre_hours_the_visitor_is_told_when_to_call(page: Page, live_server: str,
                                                                        save_screenshot):
    service = service_config(live_server, "final-expense-ib")
    page.clock.set_fixed_time(CALL_CENTRE_CLOSED)
    page.goto("/call/final-expense-ib")
    aside = page.get_by_role("complementary", name="Talk to an agent")
    expect(aside).to_contain_text("Our licensed agents take calls from 9 AM to 6 PM ET, every day.")
    expect(page.get_by_role("link", name=service["ringbaPhoneNumber"])).to_have_count(0)
    complete_steps(page, call_flow_steps(service), Contact())
    expect(page.get_by_role("heading", name="Thank you! We have your request.")).to_be_visible(timeout=25_000)
    expect(page.get_by_text("They are closed now and answer again at 9 AM ET tomorrow.", exact=False)).to_be_visible()
    expect(page.get_by_text("Current Wait Time", exact=False)).to_have_count(0)
    expect(page.get_by_text(service["ringbaPhoneNumber"])).to_have_count(0)
    expect(page.get_by_role("contentinfo")).to_contain_text(service["disclaimer"])
    save_screenshot(page, "call-thanks-closed")


@pytest.mark.own_context  # sets the clock
def test_a_disqualified_visitor_is_not_offered_the_number(page: Page, live_server: str, save_screenshot):
    service = service_config(live_server, "final-expense-ib")
    page.clock.set_fixed_time(CALL_CENTRE_OPEN)
    page.goto("/call/final-expense-ib")
    number = page.get_by_role("link", name=service["ringbaPhoneNumber"])
    expect(number).to_be_visible()
    advance_to(page, call_flow_steps(service), 1)
    page.get_by_role("radio", name="Under 50", exact=True).click()
    expect(page.get_by_role("heading", name="We're sorry...")).to_be_visible()
    expect(number).to_have_count(0)
    expect(page.get_by_text(service["phoneCallToAction"])).to_have_count(0)
    save_screenshot(page, "call-sorry")
    page.get_by_role("button", name="Go Back").click()
    expect(number).to_be_visible()


def test_age_outside_the_bounds_goes_to_disqualified(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    page.goto("/call/final-expense-ib")
    advance_to(page, steps, 2)  # 50-59 chosen: a birth date making them 49 agrees with it
    today = date.today()
    birth_year = today.year - 49
    pick_date(page, "What is your date of birth?", str(birth_year), "January", "01")
    page.get_by_role("button", name="Next").click()

    expect(page).to_have_url(f"{live_server}/disqualified")
    expect(page.get_by_role("heading", name="We're sorry...")).to_be_visible()
    age = today.year - birth_year
    expect(page.get_by_text(f"Based on your age ({age}), you do not meet our requirements of 50-75 years old.")) \
        .to_be_visible()
    expect(page.get_by_text("Please contact your local insurance provider for coverage options.")).to_be_visible()
    # The redirect replaced the step it came from in history: Back does not return to it.
    page.go_back()
    expect(page).not_to_have_url(f"{live_server}/disqualified")
    expect(page.get_by_label("What is your date of birth? Year")).to_have_count(0)


def test_call_flow_required_answer_stops_with_its_message(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    page.goto("/call/final-expense-ib")
    advance_to(page, steps, 1)
    page.get_by_role("button", name="Next").click()
    expect_step(page, 2, len(steps))
    expect(page.get_by_text("This field is required.")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)


def test_call_thanks_without_a_phone_number_redirects_home(page: Page, live_server: str):
    page.goto("/call-thanks")
    expect(page).to_have_url(f"{live_server}/")


def test_disqualified_page_defaults(page: Page, live_server: str, save_screenshot):
    page.goto("/disqualified")
    expect(page.get_by_role("heading", name="We're sorry...")).to_be_visible()
    expect(page.get_by_text("We're unable to assist you at this time.")).to_be_visible()
    expect(page.get_by_text("Please try again later.")).to_be_visible()
    save_screenshot(page, "disqualified")
    page.get_by_role("link", name="Return Home").click()
    expect(page).to_have_url(f"{live_server}/")


def test_call_flow_of_a_form_service_is_not_found(page: Page):
    page.goto("/call/hvac")
    expect(page.get_by_role("heading", name="Service Not Found")).to_be_visible()
