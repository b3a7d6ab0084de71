"""Every console page at 390 and 1280 px: what a person sees and taps, providers managed, TOTP sign-in."""

from __future__ import annotations

import re
import shutil
from urllib.parse import parse_qs, urlparse

import pyotp
import pytest
from console_support import (
    ROOT,
    HttpReceiver,
    controls,
    element_at_centre_is,
    no_sideways_overflow,
    servicematch_cli,
    sign_in,
    submit_lead,
)
from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, text

pytestmark = pytest.mark.browser

PAGES = [("Dashboard", "Dashboard"), ("Leads", "Leads"), ("Deliveries", "Deliveries"),
         ("Providers", "Providers"), ("Applications", "Applications"), ("Buyers", "Buyers"), ("Money", "Money"),
         ("Held", "Held leads"), ("Quality", "Lead quality"),
         ("Suppression", "Suppression lists"), ("Audit log", "Audit log")]


@pytest.fixture(scope="module")
def operators(operators, live_server: str):
    """conftest.py's operators, with something to show on the dashboard and in the lists, from
    more than one source."""
    for subid1 in ("", "spring-mailer", "spring-mailer", "search-ads"):
        submit_lead(live_server, subid1=subid1)
    return operators


def test_every_page_is_reachable_and_tappable_without_sideways_scrolling(page: Page, operators, save_screenshot):
    sign_in(page, operators.admin)
    nav = page.get_by_role("navigation", name="Console")
    for link_name, heading in PAGES:
        link = nav.get_by_role("link", name=link_name)
        assert element_at_centre_is(page, link), f"{link_name} is covered or off-screen"
        link.click()
        expect(page.get_by_role("heading", name=heading, level=1)).to_be_visible()
        page.wait_for_load_state("networkidle")
        assert no_sideways_overflow(page), f"{heading} scrolls sideways"
        for control in controls(page):
            if control.visible and control.enabled:
                box = control.box
                if box["y"] + box["height"] <= page.viewport_size["height"]:
                    assert control.tappable_at_centre, f"{control.name} on {heading} is covered"
        path = save_screenshot(page, f"console-{heading.lower().replace(' ', '-')}")
        if heading == "Dashboard" and page.viewport_size["width"] == 1280:
            expect(page.get_by_role("heading", name="Leads per day")).to_be_visible()
            expect(page.get_by_role("heading", name="Funnels")).to_be_visible()
            screens = ROOT / "docs" / "screens"
            screens.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, screens / "console-dashboard-1280.png")


def test_dashboard_filters_travel_in_the_address(page: Page, operators):
    sign_in(page, operators.analyst)
    page.get_by_label("Vertical", exact=True).select_option("services")
    page.get_by_label("Service", exact=True).select_option("hvac")
    expect(page).to_have_url(re.compile(r"vertical=services.*service=hvac|service=hvac.*vertical=services"))
    expect(page.get_by_role("heading", name="By service", exact=True)).to_be_visible()
    page.reload()
    expect(page.get_by_label("Service", exact=True)).to_have_value("hvac")


def test_admin_adds_edits_pauses_and_test_sends_to_a_provider(page: Page, operators, server_database_url):
    receiver = HttpReceiver(mode="ok").start()
    name = f"Cool Air {receiver.port}"
    try:
        sign_in(page, operators.admin, path="/admin/providers")
        page.get_by_role("button", name="Add provider").click()
        form = page.get_by_role("form", name="New provider")
        form.get_by_label("Name").fill(name)
        form.get_by_label("Contact e-mail").fill("cool.air@example.com")
        form.get_by_label("Webhook URL").fill(receiver.url)
        form.get_by_label("Services").fill("hvac, roofing")
        form.get_by_label("ZIP codes").fill("78704")
        form.get_by_label("Daily cap (leads)").fill("5")
        form.get_by_role("button", name="Save provider").click()
        card = page.get_by_role("region", name=name)
        expect(card).to_be_visible()
        expect(card.get_by_text("0 of 5")).to_be_visible()

        card.get_by_role("button", name=f"Edit {name}").click()
        edit = page.get_by_role("form", name=f"Edit {name}")
        edit.get_by_label("Daily cap (leads)").fill("7")
        edit.get_by_label("States").fill("tx")
        edit.get_by_role("button", name="Save provider").click()
        expect(card.get_by_text("0 of 7")).to_be_visible()
        expect(card.get_by_text("TX · 78704")).to_be_visible()

        card.get_by_role("button", name=f"Pause {name}").click()
        expect(card.get_by_text("Paused", exact=True)).to_be_visible()
        card.get_by_role("button", name=f"Resume {name}").click()
        expect(card.get_by_text("Active", exact=True)).to_be_visible()

        card.get_by_role("button", name=f"Test send to {name}").click()
        expect(card.get_by_role("status")).to_contain_text("Test lead sent: webhook delivered, HTTP 200")
        sample = receiver.wait_for(1)[-1].json
        assert sample["type"] == "lead.test" and sample["data"]["istest"] == "Y"

        page.get_by_role("link", name="Audit log").click()
        for action in ("provider.add", "provider.change", "provider.disable", "provider.enable",
                       "provider.test_send"):
            expect(page.get_by_role("cell", name=action).first).to_be_visible()
    finally:
        receiver.stop()
        # The provider now covers all of Texas for HVAC: paused, so the leads of the browser tests
        # that follow on this server are not sent to a receiver that is gone, nor take their seats.
        with create_engine(server_database_url).begin() as connection:
            connection.execute(text("UPDATE providers SET active = false, paused_by = 'operator' WHERE name = :name"),
                               {"name": name})


def test_a_bad_provider_gets_a_clear_message_and_keeps_what_was_typed(page: Page, operators):
    sign_in(page, operators.admin, path="/admin/providers")
    page.get_by_role("button", name="Add provider").click()
    form = page.get_by_role("form", name="New provider")
    form.get_by_label("Name").fill("No Area Plumbing")
    form.get_by_label("Contact e-mail").fill("no.area@example.com")
    form.get_by_label("Services").fill("plumbing")
    form.get_by_role("button", name="Save provider").click()
    expect(form.get_by_role("alert")).to_contain_text("The provider is not valid")
    expect(form.get_by_label("Name")).to_have_value("No Area Plumbing")


def test_admin_with_a_second_factor_is_asked_for_the_code(page: Page, server_database_url: str, operators):
    uri = servicematch_cli(server_database_url, "operators", "totp-enable", operators.admin).strip()
    secret = parse_qs(urlparse(uri[uri.index("otpauth://"):].split()[0]).query)["secret"][0]
    try:
        page.goto("/admin")
        page.get_by_label("E-mail").fill(operators.admin)
        page.get_by_label("Password").fill(operators.password)
        page.get_by_role("button", name="Sign in").click()
        code = page.get_by_label("Authentication code")
        expect(code).to_be_visible()
        code.fill(pyotp.TOTP(secret).now())
        page.get_by_role("button", name="Sign in").click()
        expect(page.get_by_role("navigation", name="Console")).to_be_visible()
    finally:
        servicematch_cli(server_database_url, "operators", "totp-disable", operators.admin)
