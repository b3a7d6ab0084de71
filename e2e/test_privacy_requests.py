"""In Chromium: the rights page proves the e-mail by code, deletes, answers an unknown address alike,
refuses a reused code clearly; the form says GPC is honoured; footer links reach the pages."""

from __future__ import annotations

import itertools
import re

import pytest
from funnel_steps import (
    RECEIVED,
    Contact,
    complete_steps,
    lead_form_steps,
    service_config,
    thank_you_heading,
)
from playwright.sync_api import Page, expect
from privacy_server import PrivacyServer, mail_to, submit_hvac_lead
from sqlalchemy import create_engine, select

from servicematch.schema.registry import metadata

pytestmark = pytest.mark.browser
PHONES = itertools.count(250)


@pytest.fixture(scope="module", params=[
    pytest.param(backend, marks=pytest.mark.xdist_group(f"privacy-{backend}")) for backend in ("sqlite", "postgresql")])
def server(request, shared_privacy_server) -> PrivacyServer:
    return shared_privacy_server(request.param)


@pytest.fixture(scope="session")
def base_url() -> None:
    """No shared live server for these tests: each page opens its own server's absolute URL."""



def _code(server, address: str, count: int) -> str:
    message = mail_to(server.smtp, address, count)[-1]
    return re.search(r"\b(\d{6})\b", message.get_body(preferencelist=("plain",)).get_content()).group(1)


def _ask(page: Page, server: PrivacyServer, right: str, address: str) -> tuple[str, str]:
    """Ask for `right` on the page; (the sentence the page shows, the request's id)."""
    page.goto(f"{server.base_url}/privacy/requests")
    page.get_by_role("radio", name=right).check()
    page.get_by_label("E-mail address").fill(address)
    with page.expect_response("**/api/privacy/requests") as started:
        page.get_by_role("button", name="Send me a code").click()
    expect(page.get_by_role("heading", name="Enter your code")).to_be_visible()
    return page.get_by_text("We sent a 6-digit code").inner_text(), started.value.json()["requestId"]


@pytest.mark.clock_installed  # thank_you_heading moves the clock past the loader
def test_delete_by_code_in_the_browser_and_an_unknown_address_gets_the_same_answers(
        page: Page, server: PrivacyServer, save_screenshot) -> None:
    # A phone and a street of its own: not a duplicate of another test's lead, and nothing another
    # test's lead on this server holds can be mistaken for what the deletion left behind.
    number = next(PHONES)
    contact = Contact(phone=f"5125550{number:03d}", address1=f"{number} Congress Ave")
    page.goto(f"{server.base_url}/form/hvac")
    complete_steps(page, lead_form_steps(server.base_url, service_config(server.base_url, "hvac")), contact)
    assert thank_you_heading(page) == RECEIVED
    mail_to(server.smtp, contact.email)  # the receipt
    with server.buyer._changed:  # the buyer has this lead (the server's other tests sent it theirs)
        assert server.buyer._changed.wait_for(lambda: any(
            r.json.get("consumer", {}).get("email") == contact.email for r in server.buyer.requests), 30), \
            "the buyer never got the lead"

    said = {}
    for who, address in (("known", contact.email), ("unknown", f"nobody.{contact.email}")):
        before = len([m for m in server.smtp.messages if address in m[0]])
        said[who] = [_ask(page, server, "Delete my data", address)[0].replace(address, "<address>")]
        if who == "known":
            save_screenshot(page, "privacy-requests-code")
        code = _code(server, address, before + 1)
        page.get_by_label("6-digit code").fill(code)
        confirm = page.get_by_role("button", name="Confirm")
        confirm.click()
        expect(page.get_by_role("heading", name="Request complete")).to_be_focused()
        said[who].append(page.get_by_text("Done.").inner_text())
        if who == "known":
            save_screenshot(page, "privacy-requests-done")
    assert said["known"] == said["unknown"]

    engine = create_engine(server.env["SERVICEMATCH_DATABASE_URL"])
    try:
        with engine.connect() as connection:
            dump = "\n".join(str(dict(row)) for table in metadata.sorted_tables
                             for row in connection.execute(select(table)).mappings())
    finally:
        engine.dispose()
    for personal in (contact.email, contact.phone, contact.address1):
        assert personal not in dump


@pytest.mark.clock_installed  # thank_you_heading moves the clock past the loader
def test_the_access_report_shows_questions_and_answers_in_words(page: Page, server: PrivacyServer,
                                                                save_screenshot) -> None:
    contact = Contact(phone=f"5125550{next(PHONES):03d}")
    service = submit_hvac_lead(page, server, contact)
    mail_to(server.smtp, contact.email)  # the receipt
    page.goto(f"{server.base_url}/privacy/requests")
    _ask(page, server, "See my data", contact.email)
    message = mail_to(server.smtp, contact.email, 2)[-1].get_body(preferencelist=("plain",)).get_content()
    assert "It confirms your request to see the data we hold about you" in message
    page.get_by_label("6-digit code").fill(re.search(r"\b(\d{6})\b", message).group(1))
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("heading", name="Your data")).to_be_visible()
    report = page.locator("dl").first
    expect(report.locator("dt", has_text="Street Address")).to_be_visible()
    expect(report.locator("dd", has_text=contact.address1)).to_be_visible()
    question = next(f for f in service["fields"] if f.get("mapping") == "cq1")
    expect(report.locator("dt", has_text=question["label"])).to_be_visible()
    expect(report.locator("dt", has_text=re.compile(r"^(address1|cq\d+)$"))).to_have_count(0)
    save_screenshot(page, "privacy-access-report")


def test_a_wrong_then_reused_code_is_refused_with_a_clear_message(page: Page, server: PrivacyServer) -> None:
    address = f"reuse.{page.viewport_size['width']}@example.com"
    _, request_id = _ask(page, server, "See my data", address)
    code = _code(server, address, 1)
    page.get_by_label("6-digit code").fill("000000" if code != "000000" else "111111")
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("alert")).to_contain_text("not right")
    page.get_by_label("6-digit code").fill(code)
    page.get_by_role("button", name="Confirm").click()
    expect(page.get_by_role("heading", name="Your data")).to_be_visible()
    expect(page.get_by_role("button", name="Download as JSON")).to_be_visible()
    # The same code once more (a second tab, a replay): refused, plainly.
    again = page.request.post(f"{server.base_url}/api/privacy/requests/{request_id}/verify", data={"code": code})
    assert again.status == 410 and "can no longer be used" in again.json()["error"]


def test_choices_by_phone_and_footer_links(page: Page, server: PrivacyServer, save_screenshot) -> None:
    page.goto(f"{server.base_url}/")
    for name, path in (("Do Not Sell or Share My Personal Information", "/privacy/requests"),
                       ("Your Privacy Choices", "/privacy/choices")):
        link = page.get_by_role("contentinfo").get_by_role("link", name=name)
        expect(link).to_have_attribute("href", path)
    page.goto(f"{server.base_url}/privacy/choices")
    expect(page.get_by_role("heading", name="Your Privacy Choices", level=1)).to_be_visible()
    page.get_by_role("radio", name="Phone number").check()
    page.get_by_role("textbox", name="Phone number").fill("(512) 555-0100")
    page.get_by_role("button", name="Send me a code").click()
    expect(page.get_by_text("If this phone number is in our records")).to_be_visible()
    save_screenshot(page, "privacy-choices-code")


def test_the_form_says_the_gpc_signal_is_honoured(page: Page, server: PrivacyServer) -> None:
    page.add_init_script("Object.defineProperty(navigator, 'globalPrivacyControl', {value: true})")
    steps = lead_form_steps(server.base_url, service_config(server.base_url, "hvac"))
    page.goto(f"{server.base_url}/form/hvac")
    from funnel_steps import advance_to

    advance_to(page, steps, len(steps) - 1)
    note = page.get_by_test_id("gpc-honoured")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Global Privacy Control")


def test_without_gpc_the_form_says_nothing_about_it(page: Page, server: PrivacyServer) -> None:
    steps = lead_form_steps(server.base_url, service_config(server.base_url, "hvac"))
    page.goto(f"{server.base_url}/form/hvac")
    from funnel_steps import advance_to

    advance_to(page, steps, len(steps) - 1)
    expect(page.get_by_role("checkbox")).to_be_visible()
    expect(page.get_by_test_id("gpc-honoured")).to_have_count(0)
