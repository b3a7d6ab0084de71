"""The project's own drawings (frontend/public/illustrations/): served, sized in the markup so
nothing shifts, decorative to screen readers, small, and never the page's largest paint."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

ILLUSTRATIONS = Path(__file__).resolve().parents[1] / "frontend" / "public" / "illustrations"
# Each drawing is a few KB; a pasted bitmap or an exported file full of editor metadata is not.
MAX_BYTES = 4 * 1024

# page -> drawings it shows (the category cards on the home page, the category's own hero, ...)
PAGES = {
    "/": {"hero", "services", "legal", "insurance", "financial"},
    "/category/legal": {"legal"},
    "/services/roofing": {"how-it-works"},
}

SHOWN = """() => [...document.querySelectorAll('img[src^="/illustrations/"]')].map((img) => ({
  name: img.getAttribute('src').replace('/illustrations/', '').replace('.svg', ''),
  width: img.getAttribute('width'), height: img.getAttribute('height'), alt: img.getAttribute('alt'),
  loaded: img.complete && img.naturalWidth > 0,
}))"""

LARGEST_PAINT = """() => new Promise((resolve) => {
  new PerformanceObserver((list) => {
    const entries = list.getEntries()
    const last = entries[entries.length - 1]
    resolve(last && last.element ? last.element.tagName + ' ' + (last.element.getAttribute('src') || '') : '')
  }).observe({ type: 'largest-contentful-paint', buffered: true })
})"""


def test_every_drawing_is_small_and_self_contained():
    files = sorted(ILLUSTRATIONS.glob("*.svg"))
    assert files, "no drawings found"
    for file in files:
        text = file.read_text()
        assert len(text.encode()) <= MAX_BYTES, f"{file.name}: {len(text.encode())} bytes"
        # Owned and offline: nothing fetched from elsewhere, no embedded bitmaps.
        assert "href=" not in text and "<image" not in text, f"{file.name} refers to another file"


@pytest.mark.parametrize("path", PAGES)
def test_drawings_load_with_fixed_sizes_and_no_alt_text(page: Page, live_server: str, path: str):
    html = page.request.get(live_server + path).text()
    page.goto(live_server + path)
    # Lazy drawings load once the visitor scrolls near them, as a visitor does here.
    drawings = page.locator('img[src^="/illustrations/"]')
    for index in range(drawings.count()):
        drawing = drawings.nth(index)
        drawing.scroll_into_view_if_needed()
        drawing.evaluate("(img) => img.complete || new Promise((done) => { img.onload = done; img.onerror = done })")
    shown = page.evaluate(SHOWN)
    assert {image["name"] for image in shown} == PAGES[path]
    for image in shown:
        assert image["loaded"], f"{path}: {image['name']} did not load"
        assert image["width"] and image["height"], f"{path}: {image['name']} has no size in the markup"
        assert image["alt"] == "", f"{path}: {image['name']} is decorative and must say so (alt=\"\")"
        # In the HTML the build rendered, so the page has its pictures before any script runs.
        assert f"/illustrations/{image['name']}.svg" in html, f"{path}: {image['name']} is not pre-rendered"


@pytest.mark.parametrize("path", ["/", "/category/legal"])
def test_the_headline_not_a_drawing_is_the_largest_paint(page: Page, live_server: str, path: str):
    page.goto(live_server + path)
    page.wait_for_load_state("load")
    largest = page.evaluate(LARGEST_PAINT)
    assert largest and "/illustrations/" not in largest, f"{path}: the largest paint is {largest!r}"
