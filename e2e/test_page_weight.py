"""The budget of issues 6 and 10: what a service page needs before it is interactive, in bytes as sent (gzip)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from page_weight import CSS_BUDGET_KB, JS_BUDGET_KB, measure_page

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("path", ["/services/roofing", "/legal/auto-accident/tx", "/form/hvac"])
def test_service_pages_stay_within_the_script_and_style_budget(browser: Browser, live_server: str, path: str):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        weight = measure_page(page=context.new_page(), url=live_server, path=path)
    finally:
        context.close()
    assert weight.js_files > 0, "no scripts were seen: the measurement is broken"
    assert weight.js_bytes <= JS_BUDGET_KB * 1024, f"{path}: {weight.js_bytes / 1024:.1f} KB gzip of JavaScript"
    assert weight.css_bytes <= CSS_BUDGET_KB * 1024, f"{path}: {weight.css_bytes / 1024:.1f} KB gzip of CSS"
