"""The Content-Security-Policy holds on every page type: no violation seen by the page, logged
by Chromium or reported to the server; and HEAD answers every page type as GET without a body."""

from __future__ import annotations

import time

import httpx
import pytest
from console_support import sign_in, submit_lead
from playwright.sync_api import expect

# One path per page type of backend/servicematch/web/routes.json, plus an unknown page.
PAGES = ["/", "/category/services", "/about-us", "/partner-with-us", "/privacy-policy", "/terms",
         "/privacy/requests", "/privacy/choices", "/privacy/stop", "/marketing-partners", "/thank-you",
         "/call-thanks", "/disqualified", "/form/hvac", "/form/hvac/tx", "/call/final-expense-ib",
         "/services/hvac", "/services/hvac/tx", "/legal/auto-accident", "/legal/auto-accident/tx",
         "/admin/", "/pro/", "/buyer/", "/no-such-page"]
# Collects what the policy blocked, as the page itself sees it (Playwright's init scripts are
# not subject to the page's policy).
LISTEN = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__cspViolations.push(`${event.effectiveDirective} blocked ${event.blockedURI}`);
});
"""
@pytest.fixture
def watched(page):
    """The page, what Chromium logged about the policy, and the reports it sent to the server
    (POST /api/csp-report: the server logs them, backend/tests/security/test_headers.py)."""
    page.add_init_script(LISTEN)
    console: list[str] = []
    reports: list[str] = []
    page.on("console", lambda message: console.append(message.text)
            if "Content Security Policy" in message.text else None)

    def collect_report(request) -> None:
        if request.url.endswith("/api/csp-report"):
            reports.append(request.post_data or "")

    # On the context: the browser sends the reports on no page's behalf. The context outlives the
    # test (conftest.py's `context`), so the listener goes with the test.
    page.context.on("request", collect_report)
    yield page, console, reports
    page.context.remove_listener("request", collect_report)


@pytest.mark.parametrize("path", PAGES)
def test_no_page_breaks_the_content_security_policy(live_server, watched, path):
    page, console, reports = watched
    response = page.goto(path, wait_until="networkidle")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert page.locator("#root").count() == 1
    _assert_no_violation(page, console, reports)


def _assert_no_violation(page, console: list[str], reports: list[str]) -> None:
    seen = page.evaluate("window.__cspViolations")
    time.sleep(0.3)  # reports go out on their own request
    assert (seen, console, reports) == ([], [], [])


def test_the_form_steps_and_the_signed_in_console_break_no_policy(live_server, operators, watched,
                                                                   save_screenshot):
    # The progress bar, charts and tables draw widths and heights: none of it may need inline style.
    page, console, reports = watched
    page.goto("/form/hvac", wait_until="networkidle")
    page.get_by_role("radio").first.click()  # a radio step moves on by itself
    expect(page.get_by_text("Step 2 of", exact=False)).to_be_visible()
    save_screenshot(page, "csp-form-step-2")
    _assert_no_violation(page, console, reports)
    submit_lead(live_server, subid1="csp-check")
    sign_in(page, operators.admin)
    nav = page.get_by_role("navigation", name="Console")
    for name in ("Dashboard", "Leads", "Deliveries", "Providers", "Audit log"):
        nav.get_by_role("link", name=name).click()
        expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()
        page.wait_for_load_state("networkidle")
        save_screenshot(page, f"csp-console-{name.lower().replace(' ', '-')}")
    _assert_no_violation(page, console, reports)


def test_an_injected_style_attribute_is_blocked(live_server, watched):
    page, _console, _reports = watched
    page.goto("/", wait_until="networkidle")
    page.evaluate("""() => { document.body.insertAdjacentHTML('beforeend',
        '<p id="injected" style="color: rgb(255, 0, 0)">x</p>'); }""")
    page.wait_for_function("() => window.__cspViolations.some((v) => v.startsWith('style-src'))")
    assert page.evaluate("getComputedStyle(document.getElementById('injected')).color") != "rgb(255, 0, 0)"


def test_an_inline_script_is_blocked_and_reported(live_server, watched):
    # Proves the three detectors above work: an injected inline script must trip all of them.
    page, console, reports = watched
    page.goto("/", wait_until="networkidle")
    page.evaluate("""() => {
        const script = document.createElement('script');
        script.textContent = 'window.__inlineRan = true';
        document.body.appendChild(script);
    }""")
    page.wait_for_function("() => window.__cspViolations.length > 0")
    assert page.evaluate("window.__inlineRan") is None
    deadline = time.monotonic() + 10
    while not reports and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    [report] = reports
    assert "script-src" in report
    assert any("Content Security Policy" in message for message in console)


@pytest.mark.parametrize("path", ["/", "/services/hvac", "/form/hvac", "/no-such-page", "/api/health",
                                  "/robots.txt", "/sitemap.xml", "/favicon.svg"])
def test_head_answers_as_get_without_a_body(live_server, path):
    get = httpx.get(f"{live_server}{path}")
    head = httpx.head(f"{live_server}{path}")
    assert head.status_code == get.status_code
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert head.headers["content-security-policy"] == get.headers["content-security-policy"]
