"""Third-party scripts load only when configured, never under Global Privacy Control, and feed the lead.

The vendors' hosts are answered by stand-ins in the browser, so these run offline.
"""

from __future__ import annotations

import pytest
from funnel_steps import (
    CALL_CENTRE_OPEN,
    NOT_RECEIVED,
    Contact,
    complete_steps,
    configure_public,
    lead_form_steps,
    open_with_state,
    service_config,
    stored_leads,
    thank_you_heading,
)
from playwright.sync_api import Page, Route, expect
from sqlalchemy import text

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_context_args(browser_context_args):
    # The integrations are switched on in the browser only: the server's settings leave them off,
    # so its Content-Security-Policy rightly names none of their hosts. That the policy allows each
    # host while its setting is on is checked in backend/tests/security/test_headers.py.
    return {**browser_context_args, "bypass_csp": True}

# What the lead form hands the thank-you page when a lead was accepted.
# Without a request id and status token the page asks nothing, and says only that the request is saved.
THANK_YOU = {"successMessage": "Thank you! A local professional will be in touch soon.", "reference": "3F2A-9C1B"}

PIXEL_STUB = """
window.__pixelEvents = window.fbq.queue.slice();
window.fbq.callMethod = (...args) => window.__pixelEvents.push(args);
"""
TRUSTEDFORM_CERT = "https://cert.trustedform.com/0123456789abcdef"
TRUSTEDFORM_STUB = f"""
setTimeout(() => {{
  const input = document.createElement('input');
  input.type = 'hidden';
  input.name = 'xxTrustedFormCertUrl';
  input.value = '{TRUSTEDFORM_CERT}';
  document.body.appendChild(input);
}}, 1500);
"""


def serve_script(page: Page, pattern: str, body: str, seen: list[str]) -> None:
    def answer(route: Route):
        seen.append(route.request.url)
        route.fulfill(body=body, content_type="text/javascript")

    page.route(pattern, answer)


def pixel_events(page: Page) -> list:
    return page.evaluate("window.__pixelEvents || []")


def test_pixel_sends_complete_registration_with_an_event_id_from_the_cookie(page: Page, live_server: str):
    seen: list[str] = []
    configure_public(page, pixelId="1234567890")
    serve_script(page, "https://connect.facebook.net/**", PIXEL_STUB, seen)
    page.context.add_cookies([{"name": "_fbp", "value": "fb.1.1700000000.42", "url": live_server}])
    open_with_state(page, "/thank-you", THANK_YOU)
    page.wait_for_function("(window.__pixelEvents || []).some(e => e[1] === 'CompleteRegistration')")
    event = next(e for e in pixel_events(page) if e[1] == "CompleteRegistration")
    assert "fb.1.1700000000.42" in event[3]["eventID"]
    assert ["init", "1234567890"] == pixel_events(page)[0]
    assert len(seen) == 1


def test_no_pixel_under_global_privacy_control(page: Page):
    seen: list[str] = []
    configure_public(page, pixelId="1234567890")
    serve_script(page, "https://connect.facebook.net/**", PIXEL_STUB, seen)
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true })")
    open_with_state(page, "/thank-you", THANK_YOU)
    # The pixel would have fired on arrival; the 4 s loader ending shows the page has settled.
    assert thank_you_heading(page) == NOT_RECEIVED
    assert seen == []
    assert page.evaluate("typeof window.fbq") == "undefined"


def test_nothing_loads_from_vendors_when_unconfigured(page: Page):
    outside: list[str] = []
    page.on("request", lambda request: outside.append(request.url)
            if not request.url.startswith(("http://127.0.0.1", "data:")) else None)
    page.goto("/call/final-expense-ib")
    expect(page.get_by_text("Step 1 of")).to_be_visible()
    open_with_state(page, "/thank-you", THANK_YOU)
    assert thank_you_heading(page) == NOT_RECEIVED
    assert outside == []


@pytest.mark.own_context  # sets the clock
def test_call_page_loads_tracking_script_by_id_and_phone_tap_is_a_contact(page: Page, live_server: str):
    tracking: list[str] = []
    pixel: list[str] = []
    configure_public(page, callTrackingScriptUrl="https://calls.example.test/{jsid}.js", pixelId="1234567890")
    serve_script(page, "https://calls.example.test/**", "window.__tracked = true;", tracking)
    serve_script(page, "https://connect.facebook.net/**", PIXEL_STUB, pixel)
    service = service_config(live_server, "final-expense-ib")
    page.clock.set_fixed_time(CALL_CENTRE_OPEN)  # the number shows only while the call centre answers
    page.goto("/call/final-expense-ib")
    page.wait_for_function("() => window.__tracked === true")
    assert tracking == [f"https://calls.example.test/{service['ringbaJSid']}.js"]

    # A tel: link would leave the page in a real phone; keep the test on the page.
    page.evaluate("document.addEventListener('click', e => e.target.closest('a[href^=\"tel:\"]') && e.preventDefault())")
    page.get_by_role("link", name=service["ringbaPhoneNumber"]).click()
    page.wait_for_function("(window.__pixelEvents || []).some(e => e[1] === 'Contact')")


@pytest.mark.clock_installed  # thank_you_heading moves the clock past the loader
def test_trustedform_certificate_travels_with_the_lead(page: Page, live_server: str, server_engine):
    seen: list[str] = []
    configure_public(page, trustedformEnabled=True)
    serve_script(page, "https://api.trustedform.com/**", TRUSTEDFORM_STUB, seen)
    steps = lead_form_steps(live_server, service_config(live_server, "home-security"))
    page.goto("/form/home-security")
    complete_steps(page, steps, Contact())
    thank_you_heading(page)
    assert len(seen) == 1 and "field=xxTrustedFormCertUrl" in seen[0] and "&l=" in seen[0]

    lead = stored_leads(server_engine, "home-security")[-1]
    assert lead["click"]["trustedform"] == TRUSTEDFORM_CERT
    with server_engine.connect() as connection:
        cert = connection.execute(text("SELECT trustedform_cert_url FROM consent_records WHERE lead_id = :id"),
                                  {"id": lead["id"]}).scalar_one()
    assert cert == TRUSTEDFORM_CERT
