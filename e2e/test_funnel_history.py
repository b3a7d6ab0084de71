"""The browser's Back and Forward inside the questionnaires: each step is a history entry, the
answers stay in memory (never in the URL), and the URL keeps its parameters."""

from __future__ import annotations

from datetime import date

import pytest
from funnel_steps import (
    Contact,
    advance_to,
    answer_step,
    call_flow_steps,
    expect_step,
    first_acceptable,
    lead_form_steps,
    pick_date,
    service_config,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

DOB = "What is your date of birth?"


def checked(page: Page, label: str):
    return expect(page.get_by_role("radio", name=label, exact=True))


def test_lead_form_back_and_forward_move_between_steps_and_keep_the_answers(page: Page, live_server: str):
    steps = lead_form_steps(live_server, service_config(live_server, "hvac"))
    url = f"{live_server}/form/hvac?subid1=spring-sale&subid2=fb"
    page.goto("/form/hvac?subid1=spring-sale&subid2=fb")
    advance_to(page, steps, 2)
    second = first_acceptable(steps[1][0])

    page.go_back()
    expect_step(page, 2, len(steps))
    checked(page, second).to_be_checked()
    expect(page).to_have_url(url)
    page.screenshot(path=f"/tmp/funnel-shots/lead-form-back-{page.viewport_size['width']}.png")

    page.go_forward()
    expect_step(page, 3, len(steps))
    expect(page).to_have_url(url)

    # A typed answer comes back too, and the URL never holds one.
    for index in (2, 3):
        expect_step(page, index + 1, len(steps))
        answer_step(page, steps[index], Contact(), last=False)
    expect_step(page, 5, len(steps))
    note = next(f for f in steps[4] if f["type"] == "textarea")
    page.get_by_label(note["label"]).fill("The unit rattles at night.")
    page.get_by_role("button", name="Next").click()
    expect_step(page, 6, len(steps))
    page.go_back()
    expect_step(page, 5, len(steps))
    expect(page.get_by_label(note["label"])).to_have_value("The unit rattles at night.")
    page.go_back()
    expect_step(page, 4, len(steps))
    checked(page, first_acceptable(steps[3][0])).to_be_checked()
    page.go_forward()
    expect_step(page, 5, len(steps))
    expect(page.get_by_label(note["label"])).to_have_value("The unit rattles at night.")
    expect(page).to_have_url(url)

    # The form's own Back button is the browser's Back: Forward then returns to where it was.
    page.get_by_role("button", name="Back").click()
    expect_step(page, 4, len(steps))
    page.go_forward()
    expect_step(page, 5, len(steps))


def test_call_flow_back_and_forward_move_between_steps_and_keep_the_answers(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    page.goto("/call/final-expense-ib?subid1=tv")
    advance_to(page, steps, 2)
    pick_date(page, DOB, "1962", "March", "14")

    page.go_back()
    expect_step(page, 2, len(steps))
    checked(page, "50-59").to_be_checked()
    page.go_forward()
    expect_step(page, 3, len(steps))
    expect(page.get_by_label(f"{DOB} Year")).to_have_value("1962")
    expect(page.get_by_label(f"{DOB} Month")).to_have_value("03")
    expect(page.get_by_label(f"{DOB} Day")).to_have_value("14")

    # Back from a later step, then Forward to it, with its typed answers.
    page.get_by_label(f"{DOB} Year").select_option(str(date.today().year - 55))
    page.get_by_role("button", name="Next").click()
    expect_step(page, 4, len(steps))
    answer_step(page, steps[3], Contact(), last=False)
    expect_step(page, 5, len(steps))
    page.go_back()
    expect_step(page, 4, len(steps))
    expect(page.get_by_label("First Name", exact=True)).to_have_value("Sample answer")
    expect(page.get_by_role("combobox", name="Home Address")).to_have_value("500 Congress Ave, Austin, TX 78701")
    page.go_forward()
    expect_step(page, 5, len(steps))
    expect(page).to_have_url(f"{live_server}/call/final-expense-ib?subid1=tv")
    assert "Sample" not in page.url and "Congress" not in page.url


def announced(page: Page, message: str):
    """The live region (aria-live or role=alert) that holds the message, so screen readers read it out."""
    return page.locator("[aria-live]:not([aria-live='off']), [role=alert], [role=status]").filter(has_text=message)


def test_call_flow_step_left_empty_says_this_field_is_required(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    page.goto("/call/final-expense-ib")
    advance_to(page, steps, 3)
    page.get_by_role("button", name="Next").click()
    expect_step(page, 4, len(steps))
    for control in (page.get_by_label("First Name", exact=True), page.get_by_label("Last Name", exact=True),
                    page.get_by_role("combobox", name="Home Address")):
        expect(control).to_have_attribute("aria-invalid", "true")
        message = page.locator(f"#{control.get_attribute('aria-describedby')}")
        expect(message).to_have_text("This field is required.")
        expect(message).to_have_attribute("aria-live", "polite")
        expect(message).to_be_visible()
    expect(announced(page, "This field is required.")).to_have_count(3)
    page.screenshot(path=f"/tmp/funnel-shots/call-required-{page.viewport_size['width']}.png", full_page=True)
    # The message goes once the field is answered.
    page.get_by_label("First Name", exact=True).fill("Maria")
    expect(page.get_by_label("First Name", exact=True)).to_have_attribute("aria-invalid", "false")


def test_call_flow_required_choice_left_empty_says_so(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    page.goto("/call/final-expense-ib")
    advance_to(page, steps, 1)
    page.get_by_role("button", name="Next").click()
    expect_step(page, 2, len(steps))
    expect(announced(page, "This field is required.")).to_be_visible()


def test_a_birth_date_that_contradicts_the_age_range_is_asked_about(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    page.goto("/call/final-expense-ib")
    advance_to(page, steps, 1)
    page.get_by_role("radio", name="60-69", exact=True).click()
    expect_step(page, 3, len(steps))
    year = date.today().year - 41
    pick_date(page, DOB, str(year), "January", "01")
    page.get_by_role("button", name="Next").click()

    message = (f'Please check your date of birth: it makes you {date.today().year - year}, but you chose "60-69" '
               "as your age. Correct the date, or go Back and change your age.")
    expect(announced(page, message)).to_be_visible()
    expect(page.get_by_label(f"{DOB} Year")).to_have_attribute("aria-invalid", "true")
    expect(page).to_have_url(f"{live_server}/call/final-expense-ib")
    expect_step(page, 3, len(steps))
    page.screenshot(path=f"/tmp/funnel-shots/dob-check-{page.viewport_size['width']}.png", full_page=True)

    # Correcting the date goes on.
    page.get_by_label(f"{DOB} Year").select_option(str(date.today().year - 63))
    expect(announced(page, message)).to_have_count(0)
    page.get_by_role("button", name="Next").click()
    expect_step(page, 4, len(steps))


def test_the_age_range_can_be_corrected_instead(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    page.goto("/call/final-expense-ib")
    advance_to(page, steps, 1)
    page.get_by_role("radio", name="70-75", exact=True).click()
    pick_date(page, DOB, str(date.today().year - 56), "January", "01")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("Please check your date of birth", exact=False)).to_be_visible()
    page.get_by_role("button", name="Back").click()
    expect_step(page, 2, len(steps))
    page.get_by_role("radio", name="50-59", exact=True).click()
    expect_step(page, 3, len(steps))
    expect(page.get_by_text("Please check your date of birth", exact=False)).to_have_count(0)
    page.get_by_role("button", name="Next").click()
    expect_step(page, 4, len(steps))
