"""No link on the site leads to a missing page: every internal link of every page type is followed."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urldefrag, urlparse

import httpx
import pytest
from funnel_steps import is_desktop, wait_until_drawn
from playwright.sync_api import Page

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


@pytest.mark.long  # about 40 pages drawn and 1,200 links asked for, one after another
def test_no_internal_link_is_a_404(page: Page, live_server: str):
    if not is_desktop(page):
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
        wait_until_drawn(page)
        for link in internal_links(page, live_server):
            target = urlparse(link).path
            linked_from.setdefault(link, path)
            if target not in rendered and not STATE_PAGE.match(target) and not target.startswith("/api/"):
                to_render.append(target)
    assert len(rendered) > 30, f"the crawl saw only {sorted(rendered)}"
    # A few asked at once: one after another, the few hundred answers took 10-15 s of the test.
    with httpx.Client(base_url=live_server) as client, ThreadPoolExecutor(max_workers=8) as asking:
        links = sorted(linked_from)
        statuses = asking.map(lambda link: client.get(link).status_code, links)
        missing = [f"{link} (linked from {linked_from[link]})" for link, status in zip(links, statuses, strict=True)
                   if status == 404]
    assert not missing, "links to missing pages:\n" + "\n".join(missing)
