"""Screenshots of every page type at 390 and 1280 px, for a reviewer to see the site without running it.

    uv run python scripts/screens.py [--out docs/screens] [--static frontend/dist]

Starts the real server on a free port with a throwaway database, opens each page in Debian's
Chromium and saves the first screen (the viewport, not the full page) as <page>-<width>.png.
The visual comparison test (e2e/test_visual.py) compares the same pages with these files.
"""

from __future__ import annotations

import argparse
import io
import os
import socket
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import yaml
from PIL import Image
from playwright.sync_api import Page, sync_playwright

from servicematch.devserver import SERVE, ServerDidNotStart, start_server, stop_server

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
WIDTHS = {390: 844, 1280: 900}
# The pages that need what the visitor did before (thank-you pages) get it as navigation state.
THANK_YOU_STATE = {
    "successMessage": "Thank you! A local professional will be in touch soon.",
    "requestId": "screens-thank-you-0001", "reference": "3F2A-9C1B", "statusToken": "screens-token",
}
# What GET /api/leads/{requestId}/status answers the thank-you page in the pictures: two companies.
THANK_YOU_STATUS = {"reference": "3F2A-9C1B", "finished": True, "receiptEmail": True,
                    "companies": ["Capitol City Exteriors", "Lone Star Roofing"], "service": "Roofing",
                    "recipients": [{"name": "Capitol City Exteriors", "kind": "buyer", "licenceChecked": False},
                                   {"name": "Lone Star Roofing", "kind": "provider", "licenceChecked": False}]}
CALL_THANKS_STATE = {
    "phoneNumber": "(888) 555-0142", "callToAction": "Speak with a licensed agent today.",
    "service": "final-expense-ib", "vertical": "insurance", "reference": "7K3M-Q9TX",
    "successMessage": "Your answers are saved. A licensed agent can go through your options with you by phone.",
    "callHours": {"timeZone": "America/New_York", "zoneLabel": "ET", "opens": "09:00", "closes": "18:00"},
}
# The browser's clock in every screenshot: 10 AM in New York, while the call centre answers.
SCREEN_TIME = datetime(2026, 1, 15, 15, 0, tzinfo=UTC)


def catalogue_partners() -> dict:
    """GET /api/marketing-partners as it answers with no company yet: the catalogue's own list."""
    listed = yaml.safe_load((ROOT / "catalog" / "marketing-partners.yaml").read_text())
    return {"version": str(listed["version"]), "note": listed["note"], "partners": listed["partners"]}


@dataclass(frozen=True)
class Screen:
    name: str
    path: str
    # Navigation state handed to the page, as the funnel hands it over.
    state: dict | None = None
    # Text that shows once the page is ready (waited for before the screenshot).
    ready: str | None = None
    # The answer of GET /api/leads/{requestId}/status, for the thank-you page.
    status: dict | None = None
    # Other API answers the page reads, by URL pattern: what would otherwise change with the data
    # other tests left on a shared server (the partners list names the buyers they added).
    api: dict | None = None
    settle_ms: int = field(default=300)


SCREENS = [
    Screen("home", "/", ready="Our Services"),
    Screen("category", "/category/services", ready="Featured Services"),
    Screen("service", "/services/roofing", ready="Step 1 of"),
    Screen("service-state", "/legal/auto-accident/tx", ready="Step 1 of"),
    Screen("form", "/form/hvac", ready="Step 1 of"),
    Screen("call", "/call/final-expense-ib", ready="Step 1 of"),
    Screen("thank-you", "/thank-you", state=THANK_YOU_STATE, ready="What happens next", status=THANK_YOU_STATUS),
    Screen("call-thanks", "/call-thanks", state=CALL_THANKS_STATE, ready="Agents take calls"),
    Screen("disqualified", "/disqualified", ready="Return Home"),
    Screen("about-us", "/about-us", ready="For Consumers"),
    Screen("partner-with-us", "/partner-with-us", ready="Contact Us Now"),
    Screen("privacy-policy", "/privacy-policy", ready="Quick Links"),
    Screen("terms", "/terms", ready="What We Do"),
    Screen("marketing-partners", "/marketing-partners", ready="This list may be updated",
           api={"**/api/marketing-partners": catalogue_partners()}),
    Screen("not-found", "/services/not-a-service", ready="Service Not Found"),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running_server(static_dir: Path) -> Iterator[str]:
    """`servicematch serve` on a free port with a throwaway SQLite database."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as scratch:
        env = {
            **os.environ,
            "SERVICEMATCH_DATABASE_URL": f"sqlite:///{scratch}/screens.db",
            "SERVICEMATCH_ENVIRONMENT": "test",
            "SERVICEMATCH_SITE_ORIGIN": f"http://127.0.0.1:{port}",
            "SERVICEMATCH_STATIC_DIR": str(static_dir),
            "SERVICEMATCH_DATA_KEY_FILE": f"{scratch}/data.key",
            "HOST": "127.0.0.1",
            "PORT": str(port),
        }
        base_url = f"http://127.0.0.1:{port}"
        try:
            process = start_server(env=env, base_url=base_url, command=(*SERVE, "--no-worker"))
        except ServerDidNotStart as failure:
            raise SystemExit(str(failure)) from None
        try:
            yield base_url
        finally:
            stop_server(process)


def _answering(answer: dict) -> Callable:
    return lambda route: route.fulfill(json=answer)


def open_screen(page: Page, base_url: str, screen: Screen) -> None:
    """Open the page as a visitor reaches it, with navigation state when it needs some."""
    page.clock.set_fixed_time(SCREEN_TIME)
    if screen.status is not None:
        page.route("**/api/leads/*/status", lambda route: route.fulfill(json=screen.status))
    for pattern, answer in (screen.api or {}).items():
        page.route(pattern, _answering(answer))
    if screen.state is None:
        page.goto(base_url + screen.path)
    else:
        # React Router keeps navigation state in history.state.usr; going back to an entry that
        # carries it is how the router sees it, as after a real navigation.
        page.goto(base_url + "/about-us")
        page.evaluate(
            """([path, state]) => {
                history.pushState({ usr: state, key: 'screens', idx: 1 }, '', path)
                history.pushState({ usr: null, key: 'after', idx: 2 }, '', '/about-us')
                history.back()
            }""",
            [screen.path, screen.state],
        )
    if screen.ready:
        page.get_by_text(screen.ready).first.wait_for(timeout=15_000)
    # The server's heading can match `ready` before the app has taken the page over and loaded
    # what it draws next: wait for React, then for nothing to be loading.
    page.wait_for_function(
        "() => document.documentElement.dataset.interactive === 'true'"
        " && !document.body.innerText.includes('Loading…')", timeout=15_000)
    # No blinking caret or running transition in the picture. A constructed style sheet, not a
    # <style> tag: the site's Content-Security-Policy refuses inline styles, and should.
    page.evaluate("""(css) => {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(css);
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    }""", "*, *::before, *::after { transition: none !important; animation: none !important;"
          " caret-color: transparent !important; }")
    page.wait_for_timeout(screen.settle_ms)
    page.wait_for_function("() => !document.body.innerText.includes('Loading…')", timeout=15_000)


def save_small_png(png: bytes, path: Path) -> None:
    """A 256-colour PNG: a few dozen KB instead of a few hundred, still exact enough to compare."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def capture(base_url: str, out: Path, shoot: Callable[[Page, Screen, int], None] | None = None) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for width, height in WIDTHS.items():
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            for screen in SCREENS:
                open_screen(page, base_url, screen)
                if shoot:
                    shoot(page, screen, width)
                    continue
                path = out / f"{screen.name}-{width}.png"
                save_small_png(page.screenshot(), path)
                saved.append(path)
            context.close()
        browser.close()
    return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens")
    parser.add_argument("--static", type=Path,
                        default=Path(os.environ.get("SERVICEMATCH_STATIC_DIR", ROOT / "frontend" / "dist")))
    args = parser.parse_args()
    with running_server(args.static.resolve()) as base_url:
        saved = capture(base_url, args.out)
    print(f"{len(saved)} screenshots in {args.out}")


if __name__ == "__main__":
    main()
