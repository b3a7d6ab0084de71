"""The dashboard's revenue at 390 and 1280 px: a lead sold by the auction shows as revenue,
earnings per lead and a line for its buyer, without sideways scrolling."""

from __future__ import annotations

import uuid

import pytest
from console_support import (
    ConsoleClient,
    HttpReceiver,
    listed_by_server,
    no_sideways_overflow,
    servicematch_cli,
    sign_in,
    submit_lead,
    wait_until,
)
from playwright.sync_api import Page, expect

# One worker runs both widths one after another (--dist loadgroup), so that the buyer and its
# sales are made once.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("console-revenue")]


@pytest.fixture(scope="module")
def sold(server_database_url: str, live_server: str, operators):
    """A fixed-price buyer and two leads of their own source; the buyer takes both at $31.50."""
    receiver = HttpReceiver().start()
    name = f"Revenue Buyer {uuid.uuid4().hex[:6]}"
    source = f"revenue-{uuid.uuid4().hex[:8]}"
    added = servicematch_cli(server_database_url, "buyers", "add", "--name", name, "--post-url", receiver.url,
                             "--price", "31.50", "--shared", "--terms", "credit")
    buyer_id = added.split()[1]
    wait_until(lambda: listed_by_server(live_server, name), f"the server to publish {name} as a partner")
    for _ in range(2):
        submit_lead(live_server, subid1=source)
    client = ConsoleClient(live_server, operators.analyst)
    try:
        wait_until(lambda: [row for row in client.get("/dashboard", source=source)["revenue"]["byBuyer"]
                            if row["name"] == name and row["sales"] == 2], f"{name}'s two sales")
        # Other tests' buyers may take a seat beside it: the page is checked against the API's figures.
        revenue = client.get("/dashboard", source=source)["revenue"]
    finally:
        client.close()
    yield operators, name, source, revenue
    # It takes leads from every ZIP code: paused again, so that the later tests' leads on this
    # server (a buyer's auction counted step by step, test_console_buyers.py) are not sold to it.
    servicematch_cli(server_database_url, "buyers", "pause", buyer_id)
    receiver.stop()


def _dollars(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def test_the_dashboard_shows_revenue_earnings_per_lead_and_the_buyer(page: Page, sold, save_screenshot):
    operators, name, source, revenue = sold
    [row] = [row for row in revenue["byBuyer"] if row["name"] == name]
    assert row["cents"] == 6300 and revenue["leads"] == 2
    assert revenue["earningsPerLeadCents"] == round(revenue["cents"] / 2)
    sign_in(page, operators.analyst, path=f"/admin?source={source}")  # analysts see revenue too
    figures = page.get_by_role("region", name="Revenue and earnings per lead")
    expect(figures.get_by_text(_dollars(revenue["cents"]), exact=True)).to_be_visible()
    expect(figures.get_by_text(_dollars(revenue["earningsPerLeadCents"]), exact=True)).to_be_visible()
    by_buyer = page.get_by_role("region", name="Revenue by buyer")
    expect(by_buyer.get_by_role("listitem").filter(has_text=name)).to_contain_text("$63.00")
    expect(page.get_by_role("img", name="Revenue per day")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert no_sideways_overflow(page), "the dashboard scrolls sideways"
    by_buyer.scroll_into_view_if_needed()
    save_screenshot(page, "console-revenue")
