"""Each page type looks as its screenshot under docs/screens/ shows, within a small tolerance.

After an intended change, `make screens` writes new baselines; commit them with the change."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from pixelmatch.contrib.PIL import pixelmatch
from pixelmatch.utils import antialiased, color_delta
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
# pixelmatch's colour threshold: a pixel differs when its YIQ distance exceeds 35215 × 0.1².
THRESHOLD = 0.1
# The YIQ distance of two opaque pixels is at most 1.144 times the square of their largest channel
# difference: under 18 (1.144 × 17² = 331 < 352) no pixel can pass the threshold.
LEAST_CHANNEL_DIFFERENCE = 18


def mismatched_pixels(baseline: Image.Image, actual: Image.Image) -> int:
    """pixelmatch's count of differing pixels (anti-aliasing left out), the same number, without its
    pass over every pixel in Python (2-5 s a screen): its own test runs on the pixels whose channels
    differ enough to pass the threshold, found by Pillow. Images with transparency take the plain way."""
    if not all(image.getchannel("A").getextrema() == (255, 255) for image in (baseline, actual)):
        return pixelmatch(baseline, actual, threshold=THRESHOLD, includeAA=False)
    red, green, blue = ImageChops.difference(baseline.convert("RGB"), actual.convert("RGB")).split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    candidates = largest.point(lambda value: 255 if value >= LEAST_CHANNEL_DIFFERENCE else 0).tobytes()
    first, second = baseline.tobytes(), actual.tobytes()
    width, height = baseline.size
    max_delta = 35215 * THRESHOLD * THRESHOLD
    mismatched = 0
    for found in re.finditer(rb"[^\x00]", candidates):
        index = found.start()
        x, y = index % width, index // width
        if color_delta(first, second, 4 * index, 4 * index) > max_delta and not (
                antialiased(first, x, y, width, height, second) or antialiased(second, x, y, width, height, first)):
            mismatched += 1
    return mismatched


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
    mismatched = mismatched_pixels(baseline, actual)
    share = mismatched / (baseline.width * baseline.height)
    if share > TOLERANCE:
        diff = Image.new("RGBA", baseline.size)  # pixelmatch writes RGBA into it
        pixelmatch(baseline, actual, diff, threshold=THRESHOLD, includeAA=False)
        diff.save(ARTIFACTS / f"{screen.name}-{width}-diff.png")
    assert share <= TOLERANCE, (
        f"{screen.path} at {width} px differs from {baseline_path.name} in {share:.2%} of its pixels "
        f"(see {actual_path.relative_to(ROOT)} and its -diff.png); run `make screens` if the change is meant")


def test_the_quick_count_is_pixelmatchs():
    """mismatched_pixels gives pixelmatch's own count: on a screen with text and a copy of it changed
    at random, by a little and by a lot (small pieces: pixelmatch takes seconds over a whole screen)."""
    rng = random.Random(20)
    screen = Image.open(BASELINES / "home-390.png").convert("RGBA").crop((0, 0, 240, 240))
    for amplitude in (10, 17, 18, 30, 255):
        changed = screen.copy()
        pixels = changed.load()
        for _ in range(3_000):
            x, y = rng.randrange(screen.width), rng.randrange(screen.height)
            pixels[x, y] = (*(min(255, max(0, value + rng.randint(-amplitude, amplitude)))
                              for value in pixels[x, y][:3]), 255)
        expected = pixelmatch(screen, changed, threshold=THRESHOLD, includeAA=False)
        assert mismatched_pixels(screen, changed) == expected, amplitude
    assert mismatched_pixels(screen, screen.copy()) == 0
