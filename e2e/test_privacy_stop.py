"""End to end, in Chromium: a lead sent from the form gets a receipt whose stop link, followed and
pressed, brings exactly one signed lead.revoked to the buyer and to each matched provider."""

from __future__ import annotations

import base64
import itertools
import re
import time

import pytest
from funnel_steps import Contact
from playwright.sync_api import Page, expect
from privacy_server import (
    BUYER_NAME,
    BUYER_SECRET,
    PROVIDER_SECRET,
    PrivacyServer,
    mail_to,
    submit_hvac_lead,
)
from standardwebhooks import Webhook

from servicematch.outbound.signing import verify_signature

# submit_hvac_lead's thank_you_heading moves the clock past the loader.
pytestmark = [pytest.mark.browser, pytest.mark.clock_installed]
PHONES = itertools.count(150)


@pytest.fixture(scope="module", params=[
    pytest.param(backend, marks=pytest.mark.xdist_group(f"privacy-{backend}")) for backend in ("sqlite", "postgresql")])
def server(request, shared_privacy_server) -> PrivacyServer:
    return shared_privacy_server(request.param)


@pytest.fixture(scope="session")
def base_url() -> None:
    """No shared live server for these tests: each page opens its own server's absolute URL."""



def _revoked(receiver, request_id: str) -> list:
    return [r for r in receiver.requests
            if r.json.get("type") == "lead.revoked" and r.json["data"]["requestId"] == request_id]


def _centre_is(page: Page, locator) -> bool:
    """The element at the control's centre is the control (nothing covers it)."""
    box = locator.bounding_box()
    return page.evaluate(
        "([x, y, el]) => { const hit = document.elementFromPoint(x, y); return hit === el || el.contains(hit) }",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, locator.element_handle()],
    )


def test_the_receipts_stop_link_brings_one_lead_revoked_to_every_recipient(page: Page, server: PrivacyServer,
                                                                          save_screenshot) -> None:
    # A phone of its own: a repeat within 30 days would be a duplicate, which is not sold again.
    contact = Contact(phone=f"5125550{next(PHONES):03d}")
    submit_hvac_lead(page, server, contact)

    receipt = mail_to(server.smtp, contact.email)[0]
    text = receipt.get_body(preferencelist=("plain",)).get_content()
    for name in (BUYER_NAME, "Cool Air", "Lone Star Heating"):
        assert f"  - {name}" in text
    assert re.search(r"Your reference: [0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}\s", text)
    link = re.search(r"(http://\S+/privacy/stop\?t=\S+)", text).group(1)
    # The lead itself reached everyone before the stop; the buyer's copy names its requestId.
    def posted() -> list[str]:
        return [r.json["requestId"] for r in server.buyer.requests
                if r.json.get("consumer", {}).get("email") == contact.email]

    with server.buyer._changed:
        assert server.buyer._changed.wait_for(posted, 30), "the buyer never got the lead"
    [request_id] = posted()
    with server.provider_hook._changed:  # and Cool Air's webhook (the server's other tests sent it theirs)
        assert server.provider_hook._changed.wait_for(lambda: any(
            r.json.get("type") == "lead.matched" and r.json["data"].get("requestId") == request_id
            for r in server.provider_hook.requests), 30), "the provider never got the lead"

    page.goto(link)
    expect(page.get_by_text("Pressing the button withdraws your consent")).to_be_visible()
    for name in (BUYER_NAME, "Cool Air", "Lone Star Heating"):
        expect(page.get_by_role("listitem").filter(has_text=name)).to_be_visible()
    assert _revoked(server.buyer, request_id) == []  # opening the page stopped nothing
    button = page.get_by_role("button", name="Stop all contact")
    assert _centre_is(page, button)
    save_screenshot(page, "privacy-stop")
    button.click()
    expect(page.get_by_role("status")).to_contain_text("stopped")
    save_screenshot(page, "privacy-stop-done")

    def one_each() -> bool:
        return (len(_revoked(server.buyer, request_id)) >= 1 and len(_revoked(server.provider_hook, request_id)) >= 1
                and any("Stop contacting" in str(m["Subject"])
                        for m in mail_to(server.smtp, "office@lonestar.example")))

    deadline = time.monotonic() + 30
    while not one_each() and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert one_each(), "a recipient did not get lead.revoked"
    page.wait_for_timeout(1500)  # a duplicate would have arrived by now
    (at_buyer,) = _revoked(server.buyer, request_id)
    (at_provider,) = _revoked(server.provider_hook, request_id)
    stops = [m for m in mail_to(server.smtp, "office@lonestar.example")
             if "Stop contacting" in str(m["Subject"]) and request_id in str(m["Subject"])]
    assert len(stops) == 1
    for received, secret in ((at_buyer, BUYER_SECRET), (at_provider, PROVIDER_SECRET)):
        # Neither secret is in whsec_ form: a receiver verifies with its bytes, base64-encoded.
        Webhook(base64.b64encode(secret.encode()).decode()).verify(received.body, received.headers)
        assert verify_signature(secret=secret, body=received.body, now=int(time.time()),
                                header=received.headers["X-ServiceMatch-Signature"])  # deprecated

    # The same link again: a clear refusal, and nothing more is sent.
    page.goto(link)
    expect(page.get_by_role("alert")).to_contain_text("already used")
    changed = link[:-4] + ("AAAA" if not link.endswith("AAAA") else "BBBB")
    page.goto(changed)
    expect(page.get_by_role("alert")).to_contain_text("not valid")
    assert len(_revoked(server.buyer, request_id)) == 1
