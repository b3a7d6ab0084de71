"""Lighthouse on the built site served by the real server: performance, accessibility, best practices, SEO.

One run per page (Lighthouse emulates a phone itself); the scores are printed at the end of
the test session (see pytest_terminal_summary in conftest.py).
"""

from __future__ import annotations

from dataclasses import asdict

import pytest
from lighthouse_audit import ARTIFACTS_DIR, AUDITED_PATHS, audit_page

pytestmark = [pytest.mark.browser, pytest.mark.alone]


@pytest.mark.parametrize("path", AUDITED_PATHS)
def test_page_meets_the_lighthouse_minimums(live_server: str, path: str, record_property) -> None:
    result = audit_page(base_url=live_server, path=path, output_dir=ARTIFACTS_DIR)
    # As a dict: pytest-xdist sends a worker's reports to the main process, which prints them.
    record_property("lighthouse", asdict(result))
    assert not result.shortfalls(), f"{path}: " + " | ".join(result.shortfalls())
