"""The thank-you page says what became of the request, at 390 and 1280 px: the companies that
received it (a local buyer, a provider's webhook, a provider's mailbox), with the service's success
message; or, for a duplicate delivered to nobody, that no company has it and an e-mail follows.
The reference it shows is the one the receipt prints."""

from __future__ import annotations

import itertools
import re

import pytest
from console_support import no_sideways_overflow, submit_lead
from funnel_steps import (
    NOT_RECEIVED,
    RECEIVED,
    Contact,
    complete_steps,
    lead_form_steps,
    service_config,
    thank_you_heading,
)
from playwright.sync_api import Page, expect
from privacy_server import BUYER_NAME, PrivacyServer, mail_to

# thank_you_heading moves the clock past the loader.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("privacy-sqlite"), pytest.mark.clock_installed]
PHONES = itertools.count(300)
REFERENCE = re.compile(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}")


@pytest.fixture(scope="module")
def server(shared_privacy_server) -> PrivacyServer:
    """A server of the privacy tests' own: a buyer, Cool Air (webhook) and Lone Star Heating (e-mail)
    take HVAC leads in TX."""
    return shared_privacy_server("sqlite")


@pytest.fixture(scope="session")
def base_url() -> None:
    """No shared live server for these tests: each page opens its own server's absolute URL."""


def send_form(page: Page, server: PrivacyServer, contact: Contact) -> dict:
    service = service_config(server.base_url, "hvac")
    page.goto(f"{server.base_url}/form/hvac")
    complete_steps(page, lead_form_steps(server.base_url, service), contact)
    expect(page.get_by_text("Processing your answers...")).to_be_visible()
    return service


def shown_reference(page: Page) -> str:
    reference = page.get_by_text("Your reference").locator("xpath=..").locator("strong").inner_text()
    assert REFERENCE.fullmatch(reference), reference
    return reference


def receipt_text(server: PrivacyServer, contact: Contact) -> str:
    return mail_to(server.smtp, contact.email)[0].get_body(preferencelist=("plain",)).get_content()


def test_a_request_companies_received_names_them_under_the_services_message(page: Page, server: PrivacyServer,
                                                                               save_screenshot):
    contact = Contact(phone=f"5125550{next(PHONES):03d}")
    service = send_form(page, server, contact)

    assert thank_you_heading(page) == RECEIVED
    expect(page.get_by_text(service["successMessage"])).to_be_visible()
    who = page.get_by_role("region", name="Who will contact you")
    # Each named with what it is (test_site_claims.py).
    expect(who.get_by_role("listitem")).to_have_text([
        f"{BUYER_NAME}A lead buyer, which may pass your request on to companies that offer HVAC",
        "Cool AirA provider in our network that offers HVAC", "Lone Star HeatingA provider in our network that offers HVAC"])
    expect(page.get_by_text("Expect a call or text")).to_be_visible()
    assert no_sideways_overflow(page), "the page scrolls sideways"
    save_screenshot(page, "thank-you-received")

    # Each named company has the lead, and the receipt carries the reference the page showed.
    assert f"Your reference: {shown_reference(page)}" in receipt_text(server, contact)
    assert any(r.json.get("consumer", {}).get("email") == contact.email for r in server.buyer.requests)


def test_a_duplicate_delivered_to_nobody_says_so_and_that_an_e_mail_follows(page: Page, server: PrivacyServer,
                                                                            save_screenshot):
    contact = Contact(phone=f"5125550{next(PHONES):03d}")
    submit_lead(server.base_url, phone=contact.phone)  # the same phone and service a moment before
    service = send_form(page, server, contact)

    assert thank_you_heading(page) == NOT_RECEIVED
    expect(page.get_by_text("Your request is saved, but no company has it yet. We are e-mailing you a copy of it.")
           ).to_be_visible()
    expect(page.get_by_text(service["successMessage"])).to_have_count(0)
    expect(page.get_by_role("region", name="Who will contact you")).to_have_count(0)
    expect(page.get_by_text("Expect a call or text")).to_have_count(0)
    expect(page.get_by_text("Check your e-mail")).to_be_visible()
    assert no_sideways_overflow(page), "the page scrolls sideways"
    save_screenshot(page, "thank-you-nobody")

    # The e-mail the page promised arrives, says nobody has the request, and has the same reference.
    text = receipt_text(server, contact)
    assert f"Your reference: {shown_reference(page)}" in text
    assert "nobody yet" in text and BUYER_NAME not in text
