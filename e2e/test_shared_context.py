"""The browser context the tests share (conftest.py's `context`) is left as a new one after each
test: what one test leaves behind must not reach the next."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from browser_context import new_shared_context, reset_context
from playwright.sync_api import Browser

pytestmark = pytest.mark.browser


@pytest.fixture
def used_context(browser: Browser, live_server: str):
    context = new_shared_context(browser, base_url=live_server)  # as conftest.py's `context` makes it
    yield context
    context.close()


def test_the_reset_forgets_pages_cookies_storage_and_routes(used_context, live_server: str):
    page = used_context.new_page()
    page.goto("/about-us")
    page.evaluate("() => { localStorage.setItem('answers', 'kept'); sessionStorage.setItem('tab', 'kept') }")
    used_context.add_cookies([{"name": "visited", "value": "yes", "url": live_server}])
    used_context.route("**/robots.txt", lambda route: route.abort())

    reset_context(used_context)

    assert len(used_context.pages) == 1  # only the blank page kept open
    assert used_context.cookies() == []
    after = used_context.new_page()
    after.goto("/about-us")
    assert after.evaluate("() => [localStorage.length, sessionStorage.length]") == [0, 0]
    assert after.evaluate("() => fetch('/robots.txt').then((answer) => answer.ok)")  # the route went too


def test_a_clock_set_without_a_mark_fails_the_test_that_set_it(used_context):
    page = used_context.new_page()
    page.clock.set_fixed_time(datetime(2026, 1, 15, 15, 0, tzinfo=UTC))
    page.goto("/about-us")
    with pytest.raises(pytest.fail.Exception, match="set the browser's clock"):
        reset_context(used_context)
    assert len(used_context.pages) == 1  # the rest was reset all the same


def test_a_context_fixed_at_a_time_passes_at_that_time(used_context):
    fixed_at = datetime(2026, 1, 15, 15, 0, tzinfo=UTC)
    page = used_context.new_page()
    page.clock.set_fixed_time(fixed_at)
    page.goto("/about-us")
    reset_context(used_context, fixed_at)
    assert len(used_context.pages) == 1
