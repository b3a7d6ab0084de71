"""Browser contexts the tests share (conftest.py's `context`), left as a new one after each test.
A module of its own: tests import it, and `import conftest` would find whichever test folder's
conftest pytest loaded first."""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, Request
from playwright.sync_api import Error as PlaywrightError

# How far a page's clock may be from the expected one before the test is taken to have set it.
_CLOCK_SLACK_MS = 60_000


@dataclass
class _Visited:
    """The origins a shared context's pages and frames have opened, whose stored values a reset
    clears, and the DevTools session of its blank page, which clears them."""
    devtools: CDPSession
    origins: set[str] = field(default_factory=set)


_visited: weakref.WeakKeyDictionary[BrowserContext, _Visited] = weakref.WeakKeyDictionary()


def new_shared_context(browser: Browser, **args) -> BrowserContext:
    """A context for tests to share, with the blank page it keeps open for its life: once a
    context's last page closes, the next page costs as much as a new context (0.33 s of CPU against
    0.17 s, measured per visit)."""
    context = browser.new_context(**args)
    keeper = context.new_page()
    visited = _visited[context] = _Visited(context.new_cdp_session(keeper))

    def note(request: Request) -> None:
        if request.is_navigation_request():
            parts = urlsplit(request.url)
            if parts.scheme in ("http", "https"):
                visited.origins.add(f"{parts.scheme}://{parts.netloc}")

    context.on("request", note)
    return context


def reset_context(context: BrowserContext, fixed_at: datetime | None = None) -> None:
    """Close the context's pages and forget what the test left in it; fails the test that set the
    browser's clock unmarked (once the rest is reset), as the clock cannot be."""
    _keeper, *left_open = context.pages  # the blank page `context` keeps open
    clock_set = [open_page.url for open_page in left_open if _clock_moved(open_page, fixed_at)]
    for open_page in left_open:
        open_page.close()
    context.unroute_all(behavior="ignoreErrors")
    context.clear_cookies()
    context.clear_permissions()
    _clear_local_storage(context)
    if clock_set:
        pytest.fail(f"this test set the browser's clock ({clock_set[0]}): mark it own_context or "
                    "clock_fixed_at, as the context's clock cannot be reset for the next test", pytrace=False)


def _clock_moved(open_page: Page, fixed_at: datetime | None) -> bool:
    """Whether the page's clock is away from the real one (or from `fixed_at`, where it is fixed)."""
    expected_ms = (fixed_at.timestamp() if fixed_at else time.time()) * 1000
    try:
        offset = open_page.evaluate("() => Date.now()") - expected_ms
    except PlaywrightError:  # a page closing or crashed: nothing to read, nothing left behind
        return False
    return abs(offset) > _CLOCK_SLACK_MS


def _clear_local_storage(context: BrowserContext) -> None:
    """localStorage outlives the pages (the form keeps its answers there): cleared for every origin
    the context has opened, as DevTools' "Clear site data" does. Reading which origins hold
    something first (context.storage_state()) opened a hidden page and loaded each origin no page
    had open, 0.2 s a test on a quiet machine."""
    visited = _visited[context]
    for origin in sorted(visited.origins):
        visited.devtools.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "local_storage"})
