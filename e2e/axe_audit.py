"""axe-core run inside the page, against the WCAG 2.2 AA rule set, with readable failures."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

AXE_SCRIPT = Path(__file__).resolve().parents[1] / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_AA = {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]}
# Page structure axe files under best practice rather than WCAG: one main landmark, all content
# inside landmarks, one h1 and no skipped heading levels (Lighthouse checks these too).
PAGE_STRUCTURE = {"type": "rule", "values": ["landmark-one-main", "landmark-no-duplicate-main", "region",
                                             "page-has-heading-one", "heading-order", "landmark-unique"]}


def axe_violations(page: Page, run_only: dict, also: list[str] | None = None) -> list[dict]:
    """The violations axe-core finds in the page as it is now, by the rules `run_only` selects and
    the rules named in `also` (one run of axe for both: each run walks the whole page)."""
    if not AXE_SCRIPT.is_file():
        raise AssertionError(f"{AXE_SCRIPT} is missing: run `npm install` in frontend/")
    # Colour contrast is measured on what is painted: let fades and slide-ins finish first.
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated by the test driver, not added as a <script>: the site's Content-Security-Policy
        # refuses inline scripts, as it should, and the pages are audited with it in force.
        page.evaluate(AXE_SCRIPT.read_text(encoding="utf-8"))
    result = page.evaluate(
        """([runOnly, also]) => axe.run(document, {
            runOnly, rules: Object.fromEntries(also.map((rule) => [rule, {enabled: true}])),
            resultTypes: ['violations'],
        })""",
        [run_only, also or []],
    )
    return result["violations"]


def describe(violations: list[dict]) -> str:
    """One block per rule: id, impact, what it checks, and the selectors of the failing elements."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            target = " > ".join(str(part) for part in node["target"])
            lines.append(f"    {target}")
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            if summary:
                lines.append(f"        {summary[:300]}")
    return "\n".join(lines)


def expect_no_violations(page: Page, screen: str, run_only: dict = WCAG_AA, *,
                         with_page_structure: bool = False) -> None:
    """Fail with a readable list when axe-core finds a violation (WCAG 2.2 AA unless told) on the
    screen; and of the page-structure rules too, in the same run, when asked."""
    also = PAGE_STRUCTURE["values"] if with_page_structure else []
    found = axe_violations(page, run_only, also)
    for rules, violations in (("WCAG 2.2 AA" if run_only is WCAG_AA else "page-structure",
                               [v for v in found if v["id"] not in also]),
                              ("page-structure", [v for v in found if v["id"] in also])):
        assert not violations, f"axe-core: {len(violations)} {rules} rule(s) fail on {screen}:\n" + describe(
            violations)
