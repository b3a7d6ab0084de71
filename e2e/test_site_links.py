"""No link on the site leads to a missing page: every internal link of every page type is followed."""

from __future__ import annotations

import re
from urllib.parse import urldefrag, urlparse

import httpx
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# A service page in one state links to the same places as in another: render one state per service.
STATE_PAGE = re.compile(r"^/(?!category/)[^/]+/[^/]+/[a-z]{2}$")
START = ["/", "/form/hvac", "/call/final-expense-ib", "/thank-you", "/call-thanks", "/disqualified"]


def internal_links(page: Page, origin: str) -> set[str]:
    hrefs = page.eval_on_selector_all("a[href]", "links => links.map(link => link.href)")
    found = set()
    for href in hrefs:
        url = urldefrag(href).url
        if url.startswith(origin):
            found.add(url[len(origin):] or "/")
    return found


def test_no_internal_link_is_a_404(page: Page, live_server: str, viewport: dict[str, int]):
    if viewport["width"] < 1024:
        # Both layouts draw the same links (the phone menu holds the header's); one crawl covers them.
        pytest.skip("the crawl runs once, in the desktop layout")
    to_render = list(START)
    rendered: set[str] = set()
    linked_from: dict[str, str] = {}
    while to_render:
        path = to_render.pop()
        if path in rendered:
            continue
        rendered.add(path)
        page.goto(path)
        # A page the build did not render shows "Loading…" until the app has drawn it and its links.
        expect(page.get_by_role("heading", level=1).first).to_be_visible()
        expect(page.get_by_text("Loading…")).to_have_count(0)
        for link in internal_links(page, live_server):
            target = urlparse(link).path
            linked_from.setdefault(link, path)
            if target not in rendered and not STATE_PAGE.match(target) and not target.startswith("/api/"):
                to_render.append(target)
    assert len(rendered) > 30, f"the crawl saw only {sorted(rendered)}"
    with httpx.Client(base_url=live_server) as client:
        missing = [f"{link} (linked from {source})" for link, source in sorted(linked_from.items())
                   if client.get(link).status_code == 404]
    assert not missing, "links to missing pages:\n" + "\n".join(missing)
