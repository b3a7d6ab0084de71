"""JavaScript and CSS each page type downloads before it is interactive, in KB gzip.

Starts the server as `make run` does, opens every page type of the site in Chromium, waits
for the network to go idle (the page and the chunks its route needs have loaded), and adds
up the bytes of every script and stylesheet fetched on the way, as sent (gzip). Writes the table to the
"Page weight" section of docs/benchmarks.md.

    uv run python bench/page_weight.py [--static-dir frontend/dist] [--no-report]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import ROOT, machine_description, running_server, write_report_section

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
# One page of each type in the spec's route table.
ROUTES = {
    "/": "home",
    "/category/services": "category",
    "/services/roofing": "service",
    "/legal/auto-accident/tx": "service in a state",
    "/form/hvac": "lead form",
    "/call/final-expense-ib": "call flow",
    "/about-us": "about",
    "/privacy-policy": "privacy policy",
}
# 125 until the funnel's step history, the consumers' real rating and the current partners list
# (about 2 KB gzip together) made a service page 126.8 KB: docs/performance.md.
JS_BUDGET_KB = 128
CSS_BUDGET_KB = 20


@dataclass(frozen=True)
class PageWeight:
    path: str
    js_files: int
    js_bytes: int
    css_files: int
    css_bytes: int


def measure_page(*, page: Page, url: str, path: str) -> PageWeight:
    """Load one page until the network is idle and sum its scripts and stylesheets as they came
    over the wire (the server's gzip, or the plain bytes of a file it sends uncompressed)."""
    responses = []

    def record(response) -> None:
        if response.request.resource_type in ("script", "stylesheet") and response.ok:
            responses.append(response)

    page.on("response", record)
    page.goto(url + path, wait_until="networkidle")
    page.remove_listener("response", record)
    # Sizes are read once the page is idle, when every body has arrived.
    fetched = [(response.request.resource_type, response.request.sizes()["responseBodySize"])
               for response in responses]
    scripts = [size for kind, size in fetched if kind == "script"]
    styles = [size for kind, size in fetched if kind == "stylesheet"]
    return PageWeight(path, len(scripts), sum(scripts), len(styles), sum(styles))


def measure_site(*, base_url: str, paths: list[str]) -> list[PageWeight]:
    """Every page in a fresh browser context, so nothing comes from a previous page's cache."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            weights = []
            for path in paths:
                context = browser.new_context(viewport={"width": 390, "height": 844})
                weights.append(measure_page(page=context.new_page(), url=base_url, path=path))
                context.close()
            return weights
        finally:
            browser.close()


def kb(size: int) -> str:
    return f"{size / 1024:.1f}"


def report(weights: list[PageWeight], static_dir: Path) -> str:
    rows = "\n".join(
        f"| `{w.path}` | {ROUTES.get(w.path, '')} | {w.js_files} | {kb(w.js_bytes)} | {w.css_files} | {kb(w.css_bytes)} |"
        for w in weights
    )
    service_js = max(w.js_bytes for w in weights if ROUTES.get(w.path, "").startswith("service"))
    largest_css = max(w.css_bytes for w in weights)
    built = static_dir.relative_to(ROOT) if static_dir.is_relative_to(ROOT) else static_dir
    return f"""
Scripts and stylesheets each page downloads until the network is idle (the route's chunks
included), in KB as they came over the wire (gzip), in a fresh Chromium profile at phone size. The catalogue
JSON and the HTML are not counted.

- Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {machine_description()}; site built in `{built}`
- Command: `make build && uv run python bench/page_weight.py`

| path | page | JS files | JS KB gzip | CSS files | CSS KB gzip |
|---|---|---:|---:|---:|---:|
{rows}

Budget: JavaScript of a service page at most {JS_BUDGET_KB} KB gzip, measured {kb(service_js)} KB
({verdict(service_js, JS_BUDGET_KB)}); CSS at most {CSS_BUDGET_KB} KB gzip, largest page {kb(largest_css)} KB
({verdict(largest_css, CSS_BUDGET_KB)}). How the budget is kept, and the figures before: docs/performance.md.
"""


def verdict(size: int, budget_kb: int) -> str:
    return "met" if size <= budget_kb * 1024 else "**not met**"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--static-dir", type=Path, default=ROOT / "frontend" / "dist",
                        help="the built site to serve (default: frontend/dist)")
    parser.add_argument("--no-report", action="store_true", help="print the table without writing docs/benchmarks.md")
    options = parser.parse_args()
    static_dir = options.static_dir.resolve()
    if not (static_dir / "index.html").is_file():
        sys.exit(f"{static_dir} has no index.html: run `make build` first")
    with tempfile.TemporaryDirectory() as scratch:
        database_url = f"sqlite:///{Path(scratch) / 'servicematch.db'}"
        with running_server(database_url, extra_env={"SERVICEMATCH_STATIC_DIR": str(static_dir)}) as base_url:
            weights = measure_site(base_url=base_url, paths=list(ROUTES))
    body = report(weights, static_dir)
    print(body)
    if not options.no_report:
        write_report_section("Page weight", body)


if __name__ == "__main__":
    main()
