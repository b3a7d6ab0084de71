"""Each page type looks as its screenshot under docs/screens/ shows, within a small tolerance.

After an intended change, `make screens` writes new baselines; commit them with the change."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image
from pixelmatch.contrib.PIL import pixelmatch
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from screens import SCREEN_TIME, SCREENS, Screen, open_screen, save_small_png

# open_screen fixes the browser's clock at SCREEN_TIME.
pytestmark = [pytest.mark.browser, pytest.mark.clock_fixed_at(SCREEN_TIME)]

BASELINES = ROOT / "docs" / "screens"
ARTIFACTS = ROOT / "e2e" / "artifacts" / "visual"
# Share of pixels allowed to differ: room for font hinting and the copyright year, not for a
# moved block or a changed colour.
TOLERANCE = 0.01


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_page_matches_its_baseline(page: Page, live_server: str, screen: Screen):
    width = page.viewport_size["width"]
    baseline_path = BASELINES / f"{screen.name}-{width}.png"
    if not baseline_path.is_file():
        pytest.fail(f"no baseline {baseline_path.relative_to(ROOT)}: run `make screens`")
    open_screen(page, live_server, screen)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    actual_path = ARTIFACTS / baseline_path.name
    save_small_png(page.screenshot(), actual_path)

    baseline = Image.open(baseline_path).convert("RGBA")
    actual = Image.open(actual_path).convert("RGBA")
    assert actual.size == baseline.size, f"{screen.path}: {actual.size} against the baseline's {baseline.size}"
    diff = Image.new("RGBA", baseline.size)  # pixelmatch writes RGBA into it
    mismatched = pixelmatch(baseline, actual, diff, threshold=0.1, includeAA=False)
    share = mismatched / (baseline.width * baseline.height)
    if share > TOLERANCE:
        diff.save(ARTIFACTS / f"{screen.name}-{width}-diff.png")
    assert share <= TOLERANCE, (
        f"{screen.path} at {width} px differs from {baseline_path.name} in {share:.2%} of its pixels "
        f"(see {actual_path.relative_to(ROOT)} and its -diff.png); run `make screens` if the change is meant")
