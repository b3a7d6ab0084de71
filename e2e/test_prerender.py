"""Public pages arrive with their full content, and React takes them over without a mismatch."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.browser

# One page of each prerendered kind; the state page and the form are the ones most likely to differ.
PAGES = ["/", "/category/services", "/services/roofing", "/legal/auto-accident/tx", "/form/hvac",
         "/call/final-expense-ib", "/about-us", "/privacy-policy"]


def test_the_html_holds_the_whole_page_before_any_script_runs(live_server: str):
    html = httpx.get(f"{live_server}/legal/auto-accident/tx").text
    assert '<div id="root" data-prerendered="">' in html, "the build has no prerendered pages: run `make build`"
    service = httpx.get(f"{live_server}/api/services/legal/auto-accident").json()
    assert service["faqs"][0]["question"] in html  # the FAQ, far below the fold
    assert "Texas" in html.split('id="root"', 1)[1]  # the state heading, inside the rendered page


@pytest.mark.parametrize("path", PAGES)
def test_pages_hydrate_without_errors_or_a_fetch_of_their_data(browser: Browser, live_server: str, path: str):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: problems.append(f"pageerror: {error}"))
    data_reads: list[str] = []
    page.on("request", lambda r: data_reads.append(r.url) if "/api/catalog" in r.url or "/api/services/" in r.url
            else None)
    try:
        page.goto(live_server + path, wait_until="networkidle")
        # The page marks the document once React has hydrated it: it is then React's, not static HTML.
        page.wait_for_function("() => document.documentElement.dataset.interactive === 'true'")
    finally:
        context.close()
    assert problems == []
    assert data_reads == [], "the page's data was in its HTML"


def test_a_hydrated_form_answers_taps(browser: Browser, live_server: str):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(f"{live_server}/form/hvac", wait_until="networkidle")
        first = page.locator("fieldset legend, legend").first.text_content()
        option = page.locator("input[type=radio]").first
        box = option.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function("first => document.querySelector('legend')?.textContent !== first", arg=first)
    finally:
        context.close()


def test_without_javascript_the_page_is_readable(browser: Browser, live_server: str):
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/services/roofing")
        assert page.get_by_role("heading", level=1).first.is_visible() or page.locator("h1").count() > 0
        assert page.locator("input[type=radio]").first.is_visible()
        assert page.get_by_role("contentinfo").is_visible()
    finally:
        context.close()


GPC_NOTICE = "Global Privacy Control detected: we will not sell or share your information."


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("path", ["/", "/services/roofing", "/form/hvac", "/call/final-expense-ib", "/privacy-policy",
                                  "/disqualified"])
def test_a_sec_gpc_request_is_told_in_the_footer_after_hydrating_cleanly(browser: Browser, live_server: str,
                                                                         path: str, width: int):
    context = browser.new_context(viewport={"width": width, "height": 900}, extra_http_headers={"Sec-GPC": "1"})
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: problems.append(f"pageerror: {error}"))
    try:
        page.goto(live_server + path, wait_until="networkidle")
        page.wait_for_function("() => document.documentElement.dataset.interactive === 'true'")
        notice = page.get_by_role("contentinfo").get_by_text(GPC_NOTICE)
        expect(notice).to_be_visible()
        notice.scroll_into_view_if_needed()
        expect(notice).to_be_in_viewport()
    finally:
        context.close()
    assert problems == []


def test_navigator_global_privacy_control_is_told_too_and_nothing_without_it(browser: Browser, live_server: str):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(live_server + "/about-us", wait_until="networkidle")
        page.wait_for_function("() => document.documentElement.dataset.interactive === 'true'")
        expect(page.get_by_role("contentinfo")).to_contain_text("All rights reserved")
        expect(page.get_by_text(GPC_NOTICE)).to_have_count(0)
        page.add_init_script("Object.defineProperty(navigator, 'globalPrivacyControl', {value: true})")
        page.reload(wait_until="networkidle")
        expect(page.get_by_role("contentinfo").get_by_text(GPC_NOTICE)).to_be_visible()
    finally:
        context.close()
