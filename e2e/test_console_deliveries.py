"""Deliveries from the console: one rejected by a local receiver is retried and arrives once; the page
opens on a tab that has deliveries unless the address names one."""

from __future__ import annotations

import re

import pytest
from console_support import (
    ConsoleClient,
    HttpReceiver,
    no_sideways_overflow,
    receiving_provider,
    sign_in,
    submit_lead,
    wait_until,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# Only leads from this ZIP reach the test's provider, so other browser tests' leads never do.
PROVIDER_ZIP = "78702"


@pytest.fixture
def receiver():
    receiver = HttpReceiver(mode="reject").start()
    yield receiver
    receiver.stop()


@pytest.fixture
def admin_api(live_server: str, operators):
    client = ConsoleClient(live_server, operators.admin)
    yield client
    client.close()


@pytest.fixture
def provider(admin_api: ConsoleClient, receiver: HttpReceiver):
    with receiving_provider(admin_api, receiver, PROVIDER_ZIP) as provider:
        yield provider


def arrivals(receiver: HttpReceiver, request_id: str, status: int | None = None) -> list:
    return [r for r in list(receiver.requests)
            if (r.json.get("data") or {}).get("requestId") == request_id  # the lead.matched envelope
            and (status is None or r.answered == status)]


def rejected_delivery(admin_api: ConsoleClient, request_id: str) -> dict | None:
    items = admin_api.get("/deliveries", status="rejected")["items"]
    return next((d for d in items if d["requestId"] == request_id), None)


def test_rejected_deliveries_are_retried_one_by_one_and_in_bulk_and_arrive_once(
        page: Page, live_server: str, operators, admin_api: ConsoleClient, receiver: HttpReceiver, provider):
    request_ids = [submit_lead(live_server, zip_code=PROVIDER_ZIP) for _ in range(3)]
    for request_id in request_ids:
        wait_until(lambda rid=request_id: arrivals(receiver, rid, 400), f"the receiver to reject {request_id}")
        wait_until(lambda rid=request_id: rejected_delivery(admin_api, rid), f"{request_id} listed as rejected")
    receiver.mode = "ok"

    sign_in(page, operators.admin, path="/admin/deliveries?status=rejected")
    expect(page.get_by_role("heading", name="Deliveries", level=1)).to_be_visible()
    recipient = provider["name"]
    first, *others = request_ids
    page.get_by_role("button", name=f"Retry delivery to {recipient} for {first}").click()
    expect(page.get_by_role("status").filter(has_text="1 delivery queued to send again.")).to_be_visible()
    wait_until(lambda: arrivals(receiver, first, 200), f"{first} to arrive")

    for request_id in others:
        page.get_by_role("checkbox", name=f"Select delivery to {recipient} for {request_id}").check()
    page.get_by_role("button", name="Retry selected (2)").click()
    expect(page.get_by_role("status").filter(has_text="2 deliveries queued to send again.")).to_be_visible()
    for request_id in others:
        wait_until(lambda rid=request_id: arrivals(receiver, rid, 200), f"{request_id} to arrive")

    # Delivered exactly once each: the retried rows are gone from the rejected list and the lead's
    # timeline shows the rejection and then the delivery.
    for request_id in request_ids:
        wait_until(lambda rid=request_id: rejected_delivery(admin_api, rid) is None, f"{request_id} to leave the list")
        assert len(arrivals(receiver, request_id, 200)) == 1
    page.get_by_role("link", name="Leads").click()
    page.get_by_label("Search by reference, request id, phone or e-mail").fill(first)
    page.get_by_role("button", name="Search").click()
    # The search's own list (a header row and the one lead), not the unfiltered one it replaces: a
    # link tapped in a list being swapped out can be lost with it.
    expect(page.get_by_role("row")).to_have_count(2)
    page.get_by_role("link", name=first).click()
    expect(page.get_by_role("heading", name=f"Lead {first}")).to_be_visible()
    timeline = page.get_by_role("listitem").filter(has_text=recipient).first
    expect(timeline.get_by_text("delivered", exact=True).first).to_be_visible()
    expect(timeline.get_by_text("HTTP 400")).to_be_visible()
    expect(timeline.get_by_text("HTTP 200")).to_be_visible()
    assert len(arrivals(receiver, first, 200)) == 1


TABS = ("failed", "rejected", "pending")


def test_the_page_opens_on_a_tab_that_has_deliveries_unless_the_address_names_one(
        page: Page, live_server: str, operators, admin_api: ConsoleClient, receiver: HttpReceiver, provider,
        save_screenshot):
    request_id = submit_lead(live_server, zip_code=PROVIDER_ZIP)
    wait_until(lambda: rejected_delivery(admin_api, request_id), f"{request_id} listed as rejected")
    counts = admin_api.get("/deliveries/counts")
    opened = next(status for status in TABS if counts[status] > 0)
    assert counts["failed"] == 0  # nothing fails for a day in these tests: an empty tab is passed over

    sign_in(page, operators.analyst, path="/admin/deliveries")
    tabs = page.get_by_role("group", name="Delivery status")
    expect(tabs.get_by_role("button", pressed=True)).to_have_text(re.compile(rf"^{opened.title()}"))
    expect(tabs.get_by_role("button", name=re.compile(r"^Failed")).first).to_have_attribute("aria-pressed", "false")
    if opened == "rejected":
        expect(page.get_by_role("link", name=request_id).first).to_be_visible()
    expect(page.get_by_text("No failed deliveries.")).to_have_count(0)
    assert no_sideways_overflow(page)
    save_screenshot(page, "console-deliveries-opened")

    # A tab named in the address is the one shown, empty or not.
    page.goto("/admin/deliveries?status=failed")
    expect(tabs.get_by_role("button", pressed=True)).to_have_text(re.compile(r"^Failed"))
    expect(page.get_by_text("No failed deliveries.")).to_be_visible()
