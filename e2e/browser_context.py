"""Resetting a browser context the tests share (conftest.py's `context`), so that it is left as a
new one after each test. A module of its own: tests import it, and `import conftest` would find
whichever test folder's conftest pytest loaded first."""

from __future__ import annotations

import time
from datetime import datetime

import pytest
from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

# How far a page's clock may be from the expected one before the test is taken to have set it.
_CLOCK_SLACK_MS = 60_000


def reset_context(context: BrowserContext, fixed_at: datetime | None = None) -> None:
    """Close the context's pages and forget what the test left in it; fails the test that set the
    browser's clock unmarked (once the rest is reset), as the clock cannot be."""
    origins = [origin["origin"] for origin in context.storage_state()["origins"]]
    _keeper, *left_open = context.pages  # the blank page `context` keeps open
    clock_set = [open_page.url for open_page in left_open if _clock_moved(open_page, fixed_at)]
    for open_page in left_open:
        open_page.close()
    context.unroute_all(behavior="ignoreErrors")
    context.clear_cookies()
    context.clear_permissions()
    if origins:
        _clear_local_storage(context, origins)
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


# Served in place of the origin's own page while its storage is cleared: nothing of the app runs.
_BLANK = {"status": 200, "content_type": "text/html", "body": "<!doctype html><title>reset</title>"}


def _clear_local_storage(context: BrowserContext, origins: list[str]) -> None:
    """localStorage outlives the pages (the form keeps its answers there): clear it per origin,
    from a page of that origin that the network never serves."""
    cleaner = context.new_page()
    cleaner.route("**/*", lambda route: route.fulfill(**_BLANK))
    try:
        for origin in origins:
            cleaner.goto(f"{origin}/__reset-storage")
            cleaner.evaluate("() => localStorage.clear()")
    finally:
        cleaner.close()
