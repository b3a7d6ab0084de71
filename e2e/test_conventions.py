"""Conventions the browser tests must keep to work under the site's Content-Security-Policy."""

from __future__ import annotations

import re
from pathlib import Path

E2E = Path(__file__).resolve().parent
# page.wait_for_function("window.x > 0") polls by eval(), which the policy's script-src refuses:
# such a wait passes only when its condition already holds at the first look, so it flakes.
BARE_EXPRESSION = re.compile(r'wait_for_function\(\s*"(?!\s*(\(|\w+\s*=>|function\b))')


def test_waits_poll_functions_not_expressions_the_policy_refuses():
    offenders = [f"{path.name}:{number}" for path in sorted(E2E.glob("*.py")) if path.name != Path(__file__).name
                 for number, line in enumerate(path.read_text().splitlines(), 1)
                 if BARE_EXPRESSION.search(line)]
    assert offenders == [], "use page.wait_for_function('() => …'): " + ", ".join(offenders)


def test_the_pattern_catches_a_bare_expression():
    assert BARE_EXPRESSION.search('page.wait_for_function("window.scrollY === 0")')
    assert not BARE_EXPRESSION.search('page.wait_for_function("() => window.scrollY === 0")')
    assert not BARE_EXPRESSION.search('page.wait_for_function("first => first !== 1", arg=1)')
