"""Every page type at 390 and 1280 px: each visible link and button is what a tap at its centre
hits, and nothing makes the page scroll sideways."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from screens import SCREEN_TIME, SCREENS, Screen, open_screen

# open_screen fixes the browser's clock at SCREEN_TIME.
pytestmark = [pytest.mark.browser, pytest.mark.clock_fixed_at(SCREEN_TIME)]

# Scroll each visible control to the middle of the screen and ask what is at its centre.
UNTAPPABLE = """() => {
  const missed = []
  // While a modal dialog is open, the page behind it is meant to be out of reach.
  const modal = document.querySelector('[aria-modal="true"]:not([inert])')
  for (const control of (modal ?? document).querySelectorAll('a[href], button')) {
    const style = getComputedStyle(control)
    if (control.closest('[inert], [aria-hidden="true"]') || style.visibility === 'hidden') continue
    let box = control.getBoundingClientRect()
    if (box.width <= 1 || box.height <= 1) continue  // not shown (display: none, or sr-only)
    control.scrollIntoView({ block: 'center', inline: 'center' })
    // A link that wraps onto two lines is tapped on its text, not in the gap its bounding box
    // spans between the lines: aim at the centre of its first line box.
    box = control.getClientRects()[0] ?? control.getBoundingClientRect()
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
    if (!hit || !(hit === control || control.contains(hit))) {
      missed.push(`${control.tagName.toLowerCase()} "${(control.textContent || control.getAttribute('aria-label') || '').trim().slice(0, 40)}" is under ${hit ? hit.tagName.toLowerCase() + '.' + String(hit.className).slice(0, 40) : 'nothing'}`)
    }
  }
  return missed
}"""


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_every_control_is_tappable_and_nothing_overflows(page: Page, live_server: str, screen: Screen):
    open_screen(page, live_server, screen)
    width = page.viewport_size["width"]
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= width, f"{screen.path} is {overflow} px wide at {width} px"
    missed = page.evaluate(UNTAPPABLE)
    assert not missed, f"{screen.path} at {width} px:\n" + "\n".join(missed)
