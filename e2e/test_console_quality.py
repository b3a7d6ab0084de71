"""The quality gate in the console, at 390 and 1280 px, on a server of its own that holds leads
scored under 30 (the shared server holds none: its tests' phones are fictional): a lead with a
fictional phone is held and its buyer is not pinged; an admin sees why on the held page, releases
it, and the buyer is pinged and posted it with its score; a suppression list is imported from a
file; the quality page counts the held lead under its source."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from console_support import (
    BuyerReceiver,
    Operators,
    create_operators,
    element_at_centre_is,
    listed_by_server,
    no_sideways_overflow,
    servicematch_cli,
    sign_in,
    submit_lead,
    wait_until,
)
from delivery_receivers import free_port  # loaded by console_support
from playwright.sync_api import Page, expect
from site_paths import STATIC_DIR, server_log
from sqlalchemy import create_engine, text

from servicematch.devserver import start_server, stop_server
from servicematch.kernel.references import shown_reference

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("quality-server")]

BUYER = "Gatekeeper Home Leads LLC"
SOURCE = "gate-check"


@dataclass
class QualityServer:
    base_url: str
    database_url: str
    buyer: BuyerReceiver
    operators: Operators


@pytest.fixture(scope="module")
def quality_server(tmp_path_factory) -> Iterator[QualityServer]:
    folder = tmp_path_factory.mktemp("quality-server")
    database_url = f"sqlite:///{folder / 'servicematch.db'}"
    receiver = BuyerReceiver(ping_answer={"bid": 22.5}).start()
    port = free_port()
    env = {**os.environ, "SERVICEMATCH_DATABASE_URL": database_url, "SERVICEMATCH_ENVIRONMENT": "test",
           "SERVICEMATCH_SITE_ORIGIN": f"http://127.0.0.1:{port}", "SERVICEMATCH_QUALITY_HOLD_BELOW": "30",
           "SERVICEMATCH_SUBMIT_RATE_LIMIT": "1000", "SERVICEMATCH_MAIL_DIR": str(folder / "mail"),
           "SERVICEMATCH_METRICS_DIR": str(folder / "metrics"), "SERVICEMATCH_STATIC_DIR": str(STATIC_DIR),
           "HOST": "127.0.0.1", "PORT": str(port)}
    base_url = f"http://127.0.0.1:{port}"
    log = server_log("quality-server")
    with log.open("w") as out:
        process = start_server(env=env, base_url=base_url, output=out)
        try:
            servicematch_cli(database_url, "buyers", "add", "--name", BUYER, "--ping-url", receiver.ping_url,
                             "--post-url", receiver.post_url,
                             "--terms", "credit")
            wait_until(lambda: listed_by_server(base_url, BUYER), f"the server to publish {BUYER} as a partner")
            yield QualityServer(base_url, database_url, receiver, create_operators(database_url))
        finally:
            stop_server(process)
            receiver.stop()


def _lead_column(database_url: str, request_id: str, column: str) -> str | None:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            return connection.execute(text(f"SELECT {column} FROM leads WHERE request_id = :id"),
                                      {"id": request_id}).scalar()
    finally:
        engine.dispose()


def test_a_held_lead_is_shown_with_its_reasons_released_and_then_sold(page: Page, quality_server, save_screenshot):
    server = quality_server
    pings_before = len(server.buyer.pings)
    # A fictional phone (555-01xx, one for each width: a repeat would be a duplicate) and no form
    # timing: scored under 30, held.
    phone = "5125550142" if page.viewport_size["width"] < 768 else "5125550152"
    request_id = submit_lead(server.base_url, phone=phone, subid1=SOURCE)
    wait_until(lambda: _lead_column(server.database_url, request_id, "quality_status") == "held",
               "the gate to hold the lead")
    reference = shown_reference(_lead_column(server.database_url, request_id, "reference"))
    assert len(server.buyer.pings) == pings_before, "a held lead's buyer was pinged"

    sign_in(page, server.operators.admin, path=f"{server.base_url}/admin/held?source={SOURCE}")
    expect(page.get_by_role("heading", name="Held leads", level=1)).to_be_visible()
    card = page.get_by_role("region", name=f"Lead {reference}")
    expect(card).to_be_visible()
    expect(card.get_by_text("Made-up phone number", exact=False)).to_be_visible()
    release = card.get_by_role("button", name=f"Release lead {reference}")
    release.scroll_into_view_if_needed()
    assert element_at_centre_is(page, release)
    assert no_sideways_overflow(page)
    save_screenshot(page, "console-held")

    release.click()
    card.get_by_label("Note (optional, kept in the audit log)").fill("Checked: a real customer.")
    card.get_by_role("button", name="Release to routing").click()
    expect(card.get_by_text("Released: routing sells and offers it now.")).to_be_visible()
    post = wait_until(lambda: next((json.loads(post.body) for post in server.buyer.posts
                                    if json.loads(post.body).get("requestId") == request_id), None),
                      "the released lead to be posted to its buyer")
    # The buyer reads the score and its reasons in the post, as it did in the ping.
    assert post["quality"]["score"] < 30 and "phone_fake" in post["quality"]["reasons"]
    ping = json.loads(server.buyer.pings[-1].body)
    assert ping["quality"] == post["quality"]


def test_a_suppression_list_is_imported_from_a_file(page: Page, quality_server, tmp_path: Path, save_screenshot):
    server = quality_server
    width = page.viewport_size["width"]
    name = f"litigators-{width}"
    phones = tmp_path / "litigators.csv"
    phones.write_text("(512) 555-0177\n+1 512 555 0178\nnot a phone\n")
    sign_in(page, server.operators.admin, path=f"{server.base_url}/admin/suppression")
    form = page.get_by_role("form", name="Import a suppression list")
    form.get_by_label("List", exact=True).fill(name)
    form.get_by_label("File", exact=True).set_input_files(str(phones))
    form.get_by_role("button", name="Import").click()
    expect(page.get_by_text("2 entries added", exact=False)).to_be_visible()
    expect(page.get_by_role("cell", name=name, exact=True)).to_be_visible()
    assert no_sideways_overflow(page)
    save_screenshot(page, "console-suppression")


def test_the_quality_page_counts_held_leads_by_source(page: Page, quality_server, save_screenshot):
    server = quality_server
    submit_lead(server.base_url, phone="5125550143", subid1=SOURCE)
    sign_in(page, server.operators.analyst, path=f"{server.base_url}/admin/quality")
    expect(page.get_by_role("heading", name="Lead quality", level=1)).to_be_visible()
    by_source = page.get_by_role("region", name="By source")
    expect(by_source.get_by_text(SOURCE)).to_be_visible()
    assert no_sideways_overflow(page)
    save_screenshot(page, "console-quality")
