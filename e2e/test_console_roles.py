"""The operator console as each role sees it: what an admin can do, what an analyst cannot."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from console_support import ConsoleClient, sign_in, submit_lead
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def lead_request_id(live_server: str) -> str:
    return submit_lead(live_server, email="console.role@example.com")


def test_console_page_is_noindex_and_asks_to_sign_in(page: Page, live_server: str):
    answer = httpx.get(f"{live_server}/admin/leads")
    assert answer.status_code == 200
    assert "noindex" in answer.headers.get("x-robots-tag", "")
    assert re.search(r'<meta name="robots" content="noindex', answer.text)
    page.goto("/admin/leads")
    expect(page.get_by_role("heading", name="Sign in to the ServiceMatch console")).to_be_visible()
    # Nothing of the console's data is reachable without a session.
    assert httpx.get(f"{live_server}/api/console/leads").status_code == 401


def test_wrong_password_is_refused_with_a_message(page: Page, operators):
    page.goto("/admin")
    page.get_by_label("E-mail").fill(operators.analyst)
    page.get_by_label("Password").fill("not the password at all")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_be_visible()
    expect(page.get_by_role("navigation", name="Console")).to_have_count(0)


def test_analyst_sees_masked_leads_and_no_controls_that_change_anything(page: Page, operators, lead_request_id):
    sign_in(page, operators.analyst, path="/admin/leads")
    expect(page.get_by_role("heading", name="Leads", level=1)).to_be_visible()
    page.get_by_label("Search by reference, request id, phone or e-mail").fill("console.role@example.com")
    page.get_by_role("button", name="Search").click()
    row_link = page.get_by_role("link", name=lead_request_id)
    expect(row_link).to_be_visible()
    expect(page.get_by_text("c***@example.com").first).to_be_visible()
    expect(page.get_by_text("console.role@example.com", exact=True)).to_have_count(0)
    expect(page.get_by_role("link", name="Export CSV")).to_have_count(0)

    row_link.click()
    expect(page.get_by_role("heading", name=f"Lead {lead_request_id}")).to_be_visible()
    expect(page.get_by_text("M*** G***")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Resend"))).to_have_count(0)

    page.get_by_role("link", name="Deliveries").click()
    expect(page.get_by_role("heading", name="Deliveries", level=1)).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Retry"))).to_have_count(0)
    page.get_by_role("link", name="Providers").click()
    expect(page.get_by_role("heading", name="Providers", level=1)).to_be_visible()
    expect(page.get_by_role("button", name="Add provider")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile("^(Edit|Pause|Resume|Test send)"))).to_have_count(0)

    # The browser only hides them: the server refuses them too, with the session's own CSRF token.
    refused = page.evaluate(
        """async () => {
            const session = await (await fetch('/api/console/session')).json()
            const headers = {'X-CSRF-Token': session.csrfToken, 'Content-Type': 'application/json'}
            const retry = await fetch('/api/console/deliveries/retry', {method: 'POST', headers, body: '{"ids": []}'})
            const add = await fetch('/api/console/providers', {method: 'POST', headers, body: '{"name": "X"}'})
            const csv = await fetch('/api/console/leads.csv')
            return [retry.status, add.status, csv.status]
        }"""
    )
    assert refused == [403, 403, 403]


def test_admin_sees_personal_data_exports_and_the_view_is_audited(page: Page, operators, lead_request_id,
                                                                     live_server: str):
    sign_in(page, operators.admin, path="/admin/leads")
    page.get_by_label("Search by reference, request id, phone or e-mail").fill(lead_request_id)
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_text("console.role@example.com").first).to_be_visible()
    export = page.get_by_role("link", name="Export CSV")
    expect(export).to_be_visible()
    with page.expect_download() as download:
        export.click()
    csv_text = Path(download.value.path()).read_text(encoding="utf-8")
    assert lead_request_id in csv_text

    page.get_by_role("link", name=lead_request_id).click()
    expect(page.get_by_text("Maria Garcia")).to_be_visible()
    expect(page.get_by_role("heading", name="Consent evidence")).to_be_visible()

    page.get_by_role("link", name="Audit log").click()
    expect(page.get_by_role("heading", name="Audit log", level=1)).to_be_visible()
    expect(page.get_by_role("cell", name="lead.view").first).to_be_visible()
    expect(page.get_by_role("cell", name="lead.export").first).to_be_visible()

    client = ConsoleClient(live_server, operators.admin)
    try:
        actions = [(e["operator"], e["action"]) for e in client.get("/audit")["items"]]
        assert (operators.admin, "lead.export") in actions
    finally:
        client.close()


def test_sign_out_ends_the_session(page: Page, operators):
    sign_in(page, operators.analyst)
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("heading", name="Sign in to the ServiceMatch console")).to_be_visible()
    assert page.evaluate("fetch('/api/console/session').then(r => r.status)") == 401


def test_a_session_ended_elsewhere_returns_to_sign_in_with_a_message(page: Page, operators):
    sign_in(page, operators.analyst)
    # Let the dashboard's own requests finish first: one still under way when the session ends
    # returns the page to sign-in by itself, before the tap below (the same message, but no link).
    # The panels below the figures ask for theirs only once the figures are drawn, which on a busy
    # machine can be more than networkidle's half second later: wait for every panel to be drawn.
    expect(page.get_by_role("heading", name="Call-flow clicks to call")).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="Loading")).to_have_count(0)
    page.wait_for_load_state("networkidle")
    # The session ends on the server (as on expiry) while the page still shows the console.
    page.evaluate(
        """async () => {
            const session = await (await fetch('/api/console/session')).json()
            await fetch('/api/console/session', {method: 'DELETE', headers: {'X-CSRF-Token': session.csrfToken}})
        }"""
    )
    page.get_by_role("link", name="Audit log").click()
    expect(page.get_by_role("alert")).to_have_text("Your session has ended. Sign in again to go on.")
    expect(page.get_by_role("heading", name="Sign in to the ServiceMatch console")).to_be_visible()
