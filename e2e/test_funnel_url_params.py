"""URL parameter capture, prefill from the URL and from the home page's address, and the partners link."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from funnel_steps import (
    advance_to,
    expect_step,
    lead_form_steps,
    service_config,
    stored_leads,
    thank_you_heading,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

ATTRIBUTION = {"subid1": "s-one", "subid2": "s-two", "fbclid": "fb-123", "externalid": "ext-9"}
BASE = {"first": "Ann", "last": "Lee", "email": "ann.lee@example.com", "phone": "2025550123",
        "address1": "1600 Main St", "city": "Denver", "state": "CO", "zip": "80202"}


def storage(page: Page, key: str):
    return json.loads(page.evaluate(f"window.localStorage.getItem('{key}')") or "null")


@pytest.mark.clock_installed  # thank_you_heading moves the clock past the loader
def test_url_parameters_are_stored_prefill_the_form_and_reach_the_lead(page: Page, live_server: str,
                                                                       server_engine):
    steps = lead_form_steps(live_server, service_config(live_server, "roofing"))
    page.goto(f"/form/roofing?{urlencode({**ATTRIBUTION, **BASE})}")
    expect_step(page, 1, len(steps))
    page.wait_for_function("() => window.localStorage.getItem('serviceMatchUrlParams') !== null")
    assert storage(page, "serviceMatchUrlParams") == ATTRIBUTION
    assert storage(page, "formBaseFields") == BASE

    advance_to(page, steps, len(steps) - 2)
    for label, key in [("First Name", "first"), ("Last Name", "last"), ("Email Address", "email"),
                       ("Street Address", "address1"), ("City", "city"), ("State", "state"), ("ZIP Code", "zip")]:
        expect(page.get_by_label(label, exact=True)).to_have_value(BASE[key])
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_label("Phone number", exact=True)).to_have_value("(202) 555-0123")
    page.get_by_role("checkbox").check()
    page.get_by_role("button", name="Submit").click()
    thank_you_heading(page)

    click = stored_leads(server_engine, "roofing")[-1]["click"]
    assert {key: click[key] for key in ATTRIBUTION} == ATTRIBUTION


@pytest.mark.clock_installed  # thank_you_heading moves the clock past the loader
def test_home_page_address_prefills_and_is_cleared_after_submission(page: Page, live_server: str):
    steps = lead_form_steps(live_server, service_config(live_server, "gutters"))
    page.goto("/")
    page.evaluate("""window.localStorage.setItem('serviceMatchAddress',
        JSON.stringify({address1: '500 Congress Ave', city: 'Austin', state: 'TX', zip: '78701'}))""")
    page.goto("/form/gutters")
    advance_to(page, steps, len(steps) - 2)
    expect(page.get_by_label("Street Address", exact=True)).to_have_value("500 Congress Ave")
    expect(page.get_by_label("City", exact=True)).to_have_value("Austin")
    expect(page.get_by_label("State", exact=True)).to_have_value("TX")
    expect(page.get_by_label("ZIP Code", exact=True)).to_have_value("78701")
    for label, value in [("First Name", "Maria"), ("Last Name", "Garcia"), ("Email Address", "m.g@example.com")]:
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name="Next").click()
    page.get_by_label("Phone number", exact=True).fill("5125550142")
    page.get_by_role("checkbox").check()
    page.get_by_role("button", name="Submit").click()
    thank_you_heading(page)
    assert storage(page, "serviceMatchAddress") is None


def test_consent_link_opens_marketing_partners_and_closing_returns_to_the_form(page: Page, live_server: str):
    steps = lead_form_steps(live_server, service_config(live_server, "flooring"))
    page.goto(f"/form/flooring?{urlencode(BASE)}")
    advance_to(page, steps, len(steps) - 1)
    page.get_by_role("checkbox").check()
    page.get_by_role("link", name="marketing partners").click()
    expect(page).to_have_url(f"{live_server}/marketing-partners")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").last.click()
    # Back on the form, whose address no longer carries the personal prefill parameters.
    expect(page).to_have_url(f"{live_server}/form/flooring")
    expect(page.get_by_label("Phone number", exact=True)).to_have_value("(202) 555-0123")
    expect(page.get_by_role("checkbox")).to_be_checked()
