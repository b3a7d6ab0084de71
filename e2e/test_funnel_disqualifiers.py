"""Every disqualifying answer of spec section 4 shows the in-page "We're sorry..." screen."""

from __future__ import annotations

import pytest
from funnel_steps import advance_to, call_flow_steps, expect_step, lead_form_steps, service_config
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

LEAD_FORM_DISQUALIFIERS = [
    ("auto-accident", "at_fault", "Yes"),
    ("auto-accident", "has_attorney", "Yes"),
    ("auto-accident", "received_settlement", "Yes"),
    ("bankruptcy", None, "Under $10,000"),
    ("personal-injury", None, "Over 6 months ago"),
    ("workers-comp", "injury_timing", "More than 3 Years"),
    ("workers-comp", "has_attorney", "Yes"),
    ("workers-comp", "free_consultation", "No"),
]


def sorry_sentence(option: str) -> str:
    return (f'Based on your selection of "{option}" to the previous question, we don\'t have any providers '
            "who are able to assist you at this time. Please contact a local provider for more information.")


def step_index_of(steps: list[list[dict]], option: str, field_id: str | None) -> int:
    for index, step_fields in enumerate(steps):
        for f in step_fields:
            if (field_id is None or f["id"] == field_id) and option in f["disqualifiers"]:
                return index
    raise AssertionError(f"no field disqualifies {option!r}")


@pytest.mark.parametrize(("slug", "field_id", "option"), LEAD_FORM_DISQUALIFIERS,
                         ids=[f"{s}-{f or o}" for s, f, o in LEAD_FORM_DISQUALIFIERS])
def test_disqualifying_answer_shows_sorry_screen(page: Page, live_server: str, slug, field_id, option):
    steps = lead_form_steps(live_server, service_config(live_server, slug))
    index = step_index_of(steps, option, field_id)
    page.goto(f"/form/{slug}")
    advance_to(page, steps, index)

    page.get_by_role("radio", name=option, exact=True).click()
    expect(page.get_by_role("heading", name="We're sorry...")).to_be_visible()
    expect(page.get_by_text(sorry_sentence(option))).to_be_visible()

    page.get_by_role("button", name="Go Back").click()
    expect_step(page, index + 1, len(steps))
    expect(page.get_by_role("radio", name=option, exact=True)).not_to_be_checked()


def test_cited_but_not_at_fault_does_not_disqualify(page: Page, live_server: str):
    steps = lead_form_steps(live_server, service_config(live_server, "auto-accident"))
    page.goto("/form/auto-accident")
    page.get_by_role("radio", name="Yes, I was cited but I don't believe I was at fault", exact=True).click()
    expect_step(page, 2, len(steps))
    expect(page.get_by_role("heading", name="We're sorry...")).to_have_count(0)


def test_call_flow_under_50_shows_sorry_panel_and_goes_back_a_step(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    page.goto("/call/final-expense-ib")
    advance_to(page, steps, 1)
    page.get_by_role("radio", name="Under 50", exact=True).click()
    expect(page.get_by_role("heading", name="We're sorry...")).to_be_visible()
    expect(page.get_by_text(sorry_sentence("Under 50"))).to_be_visible()
    page.get_by_role("button", name="Go Back").click()
    expect_step(page, 1, len(steps))
