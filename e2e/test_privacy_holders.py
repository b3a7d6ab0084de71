"""In Chromium: the access report names every company that received the details with what it did
(a lead buyer that refused the lead too), and the do-not-sell confirmation says how many companies
are being told, while each of them gets its signed notice."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from funnel_steps import Contact
from playwright.sync_api import Page, expect
from privacy_server import BUYER_NAME, PrivacyServer, mail_to, submit_hvac_lead

# submit_hvac_lead's thank_you_heading moves the clock past the loader.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("privacy-sqlite"), pytest.mark.clock_installed]
PHONES = itertools.count(610)
SHOTS = Path("/tmp/notices-shots")


@pytest.fixture(scope="module")
def server(shared_privacy_server) -> PrivacyServer:
    return shared_privacy_server("sqlite")


@pytest.fixture(scope="session")
def base_url() -> None:
    """No shared live server for these tests: each page opens its own server's absolute URL."""


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.viewport_size['width']}.png"), full_page=True)


def _confirm(page: Page, server: PrivacyServer, right: str, address: str) -> None:
    """Ask for `right` on the rights page and confirm it with the code from the mailbox."""
    before = len([m for m in server.smtp.messages if address in m[0]])
    page.goto(f"{server.base_url}/privacy/requests")
    page.get_by_role("radio", name=right).check()
    page.get_by_label("E-mail address").fill(address)
    page.get_by_role("button", name="Send me a code").click()
    expect(page.get_by_role("heading", name="Enter your code")).to_be_visible()
    message = mail_to(server.smtp, address, before + 1)[-1].get_body(preferencelist=("plain",)).get_content()
    page.get_by_label("6-digit code").fill(re.search(r"\b(\d{6})\b", message).group(1))
    page.get_by_role("button", name="Confirm").click()


def test_the_access_report_names_a_buyer_that_refused_the_lead_and_what_each_company_did(
        page: Page, server: PrivacyServer) -> None:
    contact = Contact(phone=f"5125550{next(PHONES):03d}",
                      email=f"holders.{page.viewport_size['width']}@example.com")
    server.buyer.mode = "reject"  # the lead buyer answers 400: it got the details all the same
    try:
        submit_hvac_lead(page, server, contact)
        mail_to(server.smtp, contact.email)  # the receipt: routing and sending are done
    finally:
        server.buyer.mode = "ok"
    _confirm(page, server, "See my data", contact.email)
    expect(page.get_by_role("heading", name="Your data")).to_be_visible()
    companies = page.get_by_role("region", name="Companies that received your contact details")
    refused = companies.get_by_test_id("report-company").filter(has_text=BUYER_NAME)
    expect(refused).to_contain_text("Was sent your contact details but turned your request down.")
    expect(companies.get_by_test_id("report-company").filter(has_text="Cool Air")).to_contain_text(
        "Received your request. It may contact you about it.")
    expect(companies.get_by_test_id("report-company")).to_have_count(3)
    _shot(page, "access-report-companies")


def test_the_do_not_sell_confirmation_says_how_many_companies_are_told_and_each_gets_a_notice(
        page: Page, server: PrivacyServer) -> None:
    contact = Contact(phone=f"5125550{next(PHONES):03d}",
                      email=f"no.sale.{page.viewport_size['width']}@example.com")
    submit_hvac_lead(page, server, contact)
    mail_to(server.smtp, contact.email)  # the receipt
    before = len([r for r in server.buyer.requests if r.json.get("type") == "lead.do_not_sell"])
    _confirm(page, server, "Do not sell or share my personal information", contact.email)
    expect(page.get_by_role("heading", name="Request complete")).to_be_focused()
    done = page.get_by_text("We will not sell or share")
    expect(done).to_contain_text("We are sending a notice to the 3 companies that received the details of "
                                 "your requests, telling them not to sell or share them either.")
    expect(done).not_to_contain_text("told our lead buyer so")
    _shot(page, "do-not-sell-done")
    # The lead buyer is sent its signed notice by the worker.
    with server.buyer._changed:
        assert server.buyer._changed.wait_for(
            lambda: len([r for r in server.buyer.requests if r.json.get("type") == "lead.do_not_sell"]) == before + 1,
            30), "the lead buyer got no lead.do_not_sell"
