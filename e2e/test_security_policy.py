"""The Content-Security-Policy holds on every page type: no violation seen by the page, logged
by Chromium or reported to the server; and HEAD answers every page type as GET without a body."""

from __future__ import annotations

import time

import httpx
import pytest

# One path per page type of backend/servicematch/web/routes.json, plus an unknown page.
PAGES = ["/", "/category/services", "/about-us", "/partner-with-us", "/privacy-policy", "/terms",
         "/privacy/requests", "/privacy/choices", "/privacy/stop", "/marketing-partners", "/thank-you",
         "/call-thanks", "/disqualified", "/form/hvac", "/form/hvac/tx", "/call/final-expense-ib",
         "/services/hvac", "/services/hvac/tx", "/legal/auto-accident", "/legal/auto-accident/tx",
         "/admin/", "/no-such-page"]
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
    page.context.on("request", lambda request: reports.append(request.post_data or "")
                    if request.url.endswith("/api/csp-report") else None)
    return page, console, reports


@pytest.mark.parametrize("path", PAGES)
def test_no_page_breaks_the_content_security_policy(live_server, watched, path):
    page, console, reports = watched
    response = page.goto(path, wait_until="networkidle")
    assert response is not None
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert page.locator("#root").count() == 1
    seen = page.evaluate("window.__cspViolations")
    time.sleep(0.3)  # reports go out on their own request
    assert (seen, console, reports) == ([], [], [])


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
