"""A scripted walk through the site appears in the console's funnel counts exactly."""

from __future__ import annotations

import re
import time

import pytest
from console_support import (
    WAIT_SECONDS,
    ConsoleClient,
    no_sideways_overflow,
    sign_in,
)
from funnel_steps import (
    CALL_CENTRE_OPEN,
    Contact,
    advance_to,
    complete_steps,
    lead_form_steps,
    service_config,
    thank_you_heading,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# A service no other browser test walks through, so only this test's visits move its counts.
WALKED = ("services", "gutters")
DISQUALIFIED = ("legal", "personal-injury", "Over 6 months ago")


@pytest.fixture
def analyst_api(live_server: str, operators):
    client = ConsoleClient(live_server, operators.analyst)
    yield client
    client.close()


def funnel_counts(client: ConsoleClient, vertical: str, slug: str) -> dict:
    """Today's funnel of one service: page views, each step by number, submissions, disqualifications."""
    funnels = client.get("/dashboard", vertical=vertical, service=slug)["funnels"]
    funnel = next((f for f in funnels if f["service"] == slug), None)
    if funnel is None:
        return {}
    page_view, *steps, _submitted_again = funnel["steps"]
    counts = {"page": page_view["count"], "submitted": funnel["submitted"]}
    counts.update({s["step"]: s["count"] for s in steps})
    counts.update({("disqualified", d["field"], d["answer"]): d["count"] for d in funnel["disqualifications"]})
    # A step nobody reached yet is the same as one not listed.
    return {key: count for key, count in counts.items() if count}


def wait_for_counts(client: ConsoleClient, vertical: str, slug: str, expected: dict) -> None:
    """Events are written in batches a moment later: wait for the counts, then hold them to exactly that."""
    deadline = time.monotonic() + WAIT_SECONDS
    while (actual := funnel_counts(client, vertical, slug)) != expected and time.monotonic() < deadline:
        time.sleep(0.25)
    assert actual == expected


def plus_one(before: dict, keys: list) -> dict:
    return {**before, **{key: before.get(key, 0) + 1 for key in keys}}


@pytest.mark.clock_installed  # thank_you_heading moves the clock past the loader
def test_a_walk_through_a_form_appears_in_the_funnel_exactly(page: Page, live_server: str, operators,
                                                               analyst_api: ConsoleClient):
    vertical, slug = WALKED
    service = service_config(live_server, slug, vertical)
    steps = lead_form_steps(live_server, service)
    before = funnel_counts(analyst_api, vertical, slug)

    page.goto(f"/form/{slug}?subid1=console-funnel")
    complete_steps(page, steps, Contact())
    thank_you_heading(page)

    numbers = [step_fields[0]["step"] for step_fields in steps]
    expected = plus_one(before, ["page", *numbers, "submitted"])
    wait_for_counts(analyst_api, vertical, slug, expected)

    # The dashboard shows the same figures, each step numbered and named as the visitor saw it
    # ("Step 1 of 6", its questions), never by the catalogue's own numbers (2..5, 98, 99).
    sign_in(page, operators.analyst, path=f"/admin?vertical={vertical}&service={slug}")
    card = page.get_by_role("region", name=f"{slug} ({vertical})")
    expect(card.get_by_text(f"Submitted: {expected['submitted']}")).to_be_visible()
    expect(card.get_by_role("row", name=f"Page view {expected['page']}")).to_be_visible()
    for number, step_fields in enumerate(steps, start=1):
        row = card.get_by_role("row").filter(has_text=f"Step {number} of {len(steps)}")
        expect(row).to_have_count(1)
        expect(row.get_by_role("rowheader")).to_contain_text(step_fields[0]["label"])
        expect(row.get_by_role("cell").first).to_have_text(str(expected[step_fields[0]["step"]]))
    expect(card.get_by_text(re.compile(r"Step (98|99)\b"))).to_have_count(0)
    assert no_sideways_overflow(page)


def test_a_disqualifying_answer_is_counted_by_field_and_answer(page: Page, live_server: str,
                                                               analyst_api: ConsoleClient):
    vertical, slug, option = DISQUALIFIED
    service = service_config(live_server, slug, vertical)
    steps = lead_form_steps(live_server, service)
    index, field = next((i, f) for i, step_fields in enumerate(steps) for f in step_fields
                        if option in f["disqualifiers"])
    before = funnel_counts(analyst_api, vertical, slug)

    page.goto(f"/form/{slug}")
    advance_to(page, steps, index)
    page.get_by_role("radio", name=option, exact=True).click()
    expect(page.get_by_role("heading", name="We're sorry...")).to_be_visible()

    shown = [step_fields[0]["step"] for step_fields in steps[: index + 1]]
    expected = plus_one(before, ["page", *shown, ("disqualified", field["id"], option)])
    wait_for_counts(analyst_api, vertical, slug, expected)


def call_clicks(client: ConsoleClient, slug: str) -> int:
    clicks = client.get("/dashboard", service=slug)["callClicks"]
    return next((c["count"] for c in clicks if c["service"] == slug), 0)


@pytest.mark.own_context  # sets the clock
def test_a_tap_on_the_number_to_call_is_counted(page: Page, analyst_api: ConsoleClient):
    slug = "final-expense-ib"
    before = call_clicks(analyst_api, slug)
    page.clock.set_fixed_time(CALL_CENTRE_OPEN)
    page.goto(f"/call/{slug}")
    number = page.get_by_role("link", name="(888) 555-0142")
    # A tel: link hands over to the phone app; the page itself stays, so stop the hand-over here.
    number.evaluate("link => link.addEventListener('click', event => event.preventDefault())")
    number.click()
    deadline = time.monotonic() + WAIT_SECONDS
    while call_clicks(analyst_api, slug) == before and time.monotonic() < deadline:
        time.sleep(0.25)
    assert call_clicks(analyst_api, slug) == before + 1
