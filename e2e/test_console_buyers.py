"""Buyers from the console at 390 and 1280 px: an admin adds a buyer, test-pings and test-posts it
against a local buyer, and a lead routed to that buyer shows its auction as a waterfall."""

from __future__ import annotations

import pytest
from console_support import (
    BuyerReceiver,
    ConsoleClient,
    assert_fits_and_tappable,
    no_sideways_overflow,
    sign_in,
    submit_lead,
    wait_until,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# Only leads from this ZIP reach the test's buyer, so other browser tests' leads never do.
BUYER_ZIP = "78711"


@pytest.fixture
def admin_api(live_server: str, operators):
    client = ConsoleClient(live_server, operators.admin)
    yield client
    # The buyers this test added are paused again, so the next run's lead goes to its own buyer.
    for buyer in client.get("/buyers")["items"]:
        if buyer["zips"] == [BUYER_ZIP] and buyer["active"]:
            client.send("POST", f"/buyers/{buyer['id']}/pause")
    client.close()


@pytest.fixture
def local_buyer():
    receiver = BuyerReceiver(ping_answer={"bid": 18.75}).start()
    yield receiver
    receiver.stop()


def routed_lead(admin_api: ConsoleClient, request_id: str) -> dict | None:
    items = admin_api.get("/leads", q=request_id)["items"]
    if not items:
        return None
    lead = admin_api.get(f"/leads/{items[0]['id']}")
    return lead if any(step["kind"] == "closed" for step in lead["auction"]) else None


def test_admin_adds_a_buyer_test_pings_it_and_sees_a_routed_leads_waterfall(
        page: Page, live_server: str, operators, admin_api: ConsoleClient, local_buyer: BuyerReceiver,
        save_screenshot):
    name = f"Local Buyer {local_buyer.port}"
    sign_in(page, operators.admin, path="/admin/buyers")
    expect(page.get_by_role("heading", name="Buyers", level=1)).to_be_visible()
    page.get_by_role("button", name="Add buyer").click()
    form = page.get_by_role("form", name="New buyer")
    form.get_by_label("Name").fill(name)
    form.get_by_label("Sold as").select_option("exclusive")
    form.get_by_label("Post URL").fill(local_buyer.post_url)
    form.get_by_label("Ping URL").fill(local_buyer.ping_url)
    form.get_by_label("Services").fill("hvac")
    form.get_by_label("ZIP codes").fill(BUYER_ZIP)
    form.get_by_label("Daily cap (leads)").fill("50")
    # On credit, so it buys before any money is paid in (a new buyer is prepaid and empty).
    form.get_by_label("Terms").select_option("credit")
    assert_fits_and_tappable(page, form)
    form.get_by_role("button", name="Save buyer").click()

    expect(page.get_by_role("status").filter(has_text=f"Added {name}")).to_contain_text("whsec_")
    card = page.get_by_role("region", name=name)
    expect(card.get_by_text("Ping-post, exclusive")).to_be_visible()
    expect(card.get_by_text("50 a day")).to_be_visible()

    card.get_by_role("button", name=f"Test ping {name}").click()
    expect(card.get_by_role("status")).to_contain_text("Test ping: Bid $18.75 · HTTP 200")
    [ping] = local_buyer.pings
    assert ping.json["type"] == "lead.ping" and ping.json["test"] is True
    card.get_by_role("button", name=f"Test post to {name}").click()
    expect(card.get_by_role("status")).to_contain_text("Test post delivered · HTTP 200")
    assert local_buyer.posts[-1].json["istest"] == "Y"
    assert_fits_and_tappable(page, card)
    save_screenshot(page, "console-buyer-tested")

    request_id = submit_lead(live_server, zip_code=BUYER_ZIP)
    lead = wait_until(lambda: routed_lead(admin_api, request_id), f"{request_id}'s auction to close")

    page.goto(f"/admin/leads/{lead['id']}")
    expect(page.get_by_role("heading", name=f"Lead {request_id}")).to_be_visible()
    auction = page.get_by_role("region", name="Auction")
    steps = auction.get_by_role("listitem")
    expect(steps).to_have_count(6)
    for row, (kind, text) in enumerate([("Ping", name), ("Bid", "$18.75"), ("Outcome", f"exclusive: {name}"),
                                        ("Post", "$18.75"), ("Accepted", "sold for $18.75"),
                                        ("Closed", "nothing left to post")]):
        expect(steps.nth(row)).to_contain_text(kind)
        expect(steps.nth(row)).to_contain_text(text)
        expect(steps.nth(row)).to_contain_text(" ms")
    assert no_sideways_overflow(page), "the lead page scrolls sideways"
    save_screenshot(page, "console-lead-auction")

    page.get_by_role("link", name="Buyers").click()
    card = page.get_by_role("region", name=name)
    card.get_by_role("button", name=f"Show recent bids of {name}").click()
    bids = page.get_by_role("region", name=f"Recent bids of {name}")
    expect(bids.get_by_role("link", name="hvac · TX")).to_be_visible()
    expect(bids).to_contain_text("$18.75")
    assert_fits_and_tappable(page, card)


def test_an_analyst_sees_buyers_but_no_buttons_that_change_them(page: Page, operators, admin_api: ConsoleClient):
    added = admin_api.send("POST", "/buyers", {"name": "Fixed Price Co", "postUrl": "http://127.0.0.1:9/post",
                                               "price": 12, "zips": [BUYER_ZIP]})
    assert added.status_code == 201, added.text
    sign_in(page, operators.analyst, path="/admin/buyers")
    card = page.get_by_role("region", name="Fixed Price Co").first
    expect(card.get_by_text("Fixed price, shared")).to_be_visible()
    expect(card.get_by_text("$12.00")).to_be_visible()
    expect(page.get_by_role("button", name="Add buyer")).to_have_count(0)
    expect(card.get_by_role("button", name="Edit Fixed Price Co")).to_have_count(0)
    expect(card.get_by_role("button", name="Test post to Fixed Price Co")).to_have_count(0)
    expect(card.get_by_role("button", name="Show recent bids of Fixed Price Co")).to_be_visible()
    assert no_sideways_overflow(page)
