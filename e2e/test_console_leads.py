"""A lead in the console after its deliveries and the consumer's stop, at 390 and 1280 px: its page
counts the lead's deliveries, its consent receipt and its privacy notices apart; the list marks it
revoked, and the export says so with its consent, do-not-sell signal and source. The list and the
lead page show the reference the consumer quotes."""

from __future__ import annotations

import csv
import email
import hashlib
import re
from email import policy
from pathlib import Path

import httpx
import pytest
from console_support import (
    ConsoleClient,
    HttpReceiver,
    element_at_centre_is,
    no_sideways_overflow,
    receiving_provider,
    sign_in,
    submit_lead,
    wait_until,
)
from playwright.sync_api import Page, expect

# One worker runs the module's tests one after another (--dist loadgroup), so that its module
# fixtures (a provider and its receiver, a revoked lead and a kept one) are made once.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("console-leads")]

# The test provider's ZIP (no other browser test's).
PROVIDER_ZIP = "78705"


@pytest.fixture(scope="module")
def receiver():
    receiver = HttpReceiver(mode="ok").start()
    yield receiver
    receiver.stop()


@pytest.fixture(scope="module")
def analyst_api(live_server: str, operators):
    client = ConsoleClient(live_server, operators.analyst)
    yield client
    client.close()


@pytest.fixture(scope="module")
def provider(live_server: str, operators, receiver: HttpReceiver):
    admin = ConsoleClient(live_server, operators.admin)
    with receiving_provider(admin, receiver, PROVIDER_ZIP) as provider:
        yield provider
    admin.close()


def lead_of(client: ConsoleClient, request_id: str) -> dict | None:
    items = client.get("/leads", q=request_id)["items"]
    return client.get(f"/leads/{items[0]['id']}") if items else None


def counted(client: ConsoleClient, request_id: str, carried: str, delivered: int) -> dict | None:
    lead = lead_of(client, request_id)
    return lead if lead and lead["deliveryCounts"][carried]["delivered"] == delivered else None


def stop_link_token(mail_dir: Path, address: str) -> str | None:
    """The stop link's token in the consent receipt the server mailed to `address`, once there."""
    for path in sorted(mail_dir.glob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        if message["To"] == address:
            text = message.get_body(preferencelist=("plain",)).get_content()
            return re.search(r"/privacy/stop\?t=(\S+)", text).group(1)
    return None


@pytest.fixture(scope="module")
def revoked_lead(live_server: str, server_mail_dir: Path, analyst_api: ConsoleClient, provider) -> dict:
    """A lead sent to the provider, with its consent receipt, whose consumer then pressed the
    receipt's stop button: the provider got a lead.revoked notice."""
    address = "stop.after.delivery@example.com"
    request_id = submit_lead(live_server, zip_code=PROVIDER_ZIP, email=address)
    wait_until(lambda: counted(analyst_api, request_id, "leads", 1), "the lead to reach the provider")
    token = wait_until(lambda: stop_link_token(server_mail_dir, address), "the consent receipt")
    answer = httpx.post(f"{live_server}/api/privacy/stop", json={"token": token}, timeout=20)
    assert answer.status_code == 200, answer.text
    return wait_until(lambda: counted(analyst_api, request_id, "notices", 1), "the provider's lead.revoked")


def test_the_lead_page_counts_the_lead_its_receipt_and_its_notices_apart(page: Page, operators, provider,
                                                                          revoked_lead: dict, save_screenshot):
    assert revoked_lead["deliveryCounts"]["leads"]["total"] == 1  # the notice is not a second delivery
    sign_in(page, operators.analyst, path=f"/admin/leads/{revoked_lead['id']}")
    card = page.get_by_role("region", name="Deliveries")
    for term, figures in (("Lead (buyers and providers)", "1: 1 delivered"), ("Consent receipt", "1: 1 delivered"),
                          ("Privacy notices", "1: 1 delivered")):
        expect(card.locator("dt", has_text=term).locator("xpath=following-sibling::dd[1]")).to_have_text(figures)
    recipient = provider["name"]
    expect(card.get_by_text(f"Lead to {recipient} by webhook")).to_be_visible()
    expect(card.get_by_text(f"Revocation notice to {recipient} by webhook")).to_be_visible()
    expect(card.get_by_text("Consent receipt to Consumer by email")).to_be_visible()
    assert no_sideways_overflow(page)
    save_screenshot(page, "console-lead-delivery-counts")


@pytest.fixture(scope="module")
def kept_lead(live_server: str, analyst_api: ConsoleClient) -> dict:
    request_id = submit_lead(live_server, zip_code=PROVIDER_ZIP)
    return wait_until(lambda: lead_of(analyst_api, request_id), "the lead to be listed")


def test_a_revoked_lead_shows_as_revoked_in_the_list(page: Page, operators, revoked_lead: dict, kept_lead: dict,
                                                     save_screenshot):
    sign_in(page, operators.analyst, path=f"/admin/leads?q={revoked_lead['requestId']}")
    row = page.get_by_role("row").filter(has_text=revoked_lead["requestId"])
    badge = row.get_by_text("revoked", exact=True)
    expect(badge).to_be_visible()
    expect(row.get_by_text("consent withdrawn")).to_be_visible()
    # On screen as the page opens, at 390 px too, not past the table's sideways scroll.
    assert element_at_centre_is(page, badge)
    expect(row.get_by_role("cell", name="website", exact=True)).to_be_visible()
    assert no_sideways_overflow(page)
    save_screenshot(page, "console-leads-revoked")

    page.get_by_role("searchbox").fill(kept_lead["requestId"])
    page.get_by_role("button", name="Search").click()
    row = page.get_by_role("row").filter(has_text=kept_lead["requestId"])
    expect(row.get_by_role("cell", name="website", exact=True)).to_be_visible()
    expect(row.get_by_text("revoked", exact=True)).to_have_count(0)


def test_the_export_says_when_consent_was_given_and_withdrawn_and_the_source(page: Page, operators,
                                                                            revoked_lead: dict, tmp_path: Path):
    sign_in(page, operators.admin, path=f"/admin/leads?q={revoked_lead['requestId']}")
    with page.expect_download() as download:
        page.get_by_role("link", name="Export CSV").click()
    path = tmp_path / "leads.csv"
    download.value.save_as(path)
    with path.open(newline="") as csv_file:
        (row,) = list(csv.DictReader(csv_file))
    consent = revoked_lead["consent"]
    assert row["requestId"] == revoked_lead["requestId"]
    assert row["consentAt"] == consent["at"]
    assert row["consentTextSha256"] == hashlib.sha256(consent["text"].encode()).hexdigest() == consent["textSha256"]
    assert (row["revoked"], row["revokedAt"]) == ("True", revoked_lead["privacy"]["revokedAt"])
    assert (row["doNotSell"], row["source"]) == ("False", "website")


def test_the_list_and_the_lead_page_show_the_reference_the_consumer_quotes(page: Page, operators, kept_lead: dict,
                                                                          save_screenshot):
    reference = kept_lead["reference"]
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", reference)
    # Found by the reference as a consumer reads it out on the phone, without its dash, in lower case.
    sign_in(page, operators.analyst, path=f"/admin/leads?q={reference.replace('-', '').lower()}")
    row = page.get_by_role("row").filter(has_text=kept_lead["requestId"])
    shown = row.get_by_text(f"Ref {reference}", exact=True)
    expect(shown).to_be_visible()
    # On screen as the page opens, at 390 px too, not past the table's sideways scroll.
    assert element_at_centre_is(page, shown)
    assert no_sideways_overflow(page)
    save_screenshot(page, "console-leads-reference")

    row.get_by_role("link", name=kept_lead["requestId"]).click()
    facts = page.get_by_role("region", name="Lead")
    expect(facts.locator("dt", has_text="Reference").locator("xpath=following-sibling::dd[1]")).to_have_text(reference)
    assert no_sideways_overflow(page)
    save_screenshot(page, "console-lead-reference")
