"""Arrows between packages point one way, down one written order: the order in the README's layout.

ORDER runs from the bottom up. Plumbing comes first (the clock and ids, the guarded HTTP client,
settings, errors, SMTP, database sessions, route dependencies, what arrives over HTTP): it knows
nothing of leads. The rooms follow in the order a lead meets them (the catalogue, addresses,
intake, funnel events, delivery's outbox, privacy, routing, the reports), then signing in
(`access`) below the two rooms people sign in to, the provider portal and the console. Each
package may import those before it, never one after. Composition roots (the app, the CLI, the
workers, the schema that gathers every table, the site) put the rooms together: they may import
any package, and no package imports them but another root.

    python scripts/package_graph.py    prints the graph, its two-way pairs and any arrow against ORDER
"""

from __future__ import annotations

import re
from pathlib import Path

from test_import_graph import import_graph

ORDER = [
    # plumbing
    "kernel", "outbound", "settings", "errors", "terminal", "mail", "db", "deps", "inbound",
    # rooms
    "catalog", "address", "intake", "events", "delivery", "privacy", "ledger", "quality", "routing", "reporting",
    "access", "portal", "buyer", "console", "ops", "security",
]
PLUMBING = set(ORDER[: ORDER.index("catalog")])
ROOTS = {"app", "cli", "workers", "worker_process", "devserver", "web", "schema", "api_schema", "__init__"}
README = Path(__file__).resolve().parents[3] / "README.md"


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def package_arrows(graph: dict[str, set[str]]) -> dict[tuple[str, str], tuple[str, str]]:
    """(package, package it imports) -> one module-level example of that arrow."""
    arrows: dict[tuple[str, str], tuple[str, str]] = {}
    for source, targets in sorted(graph.items()):
        for target in sorted(targets):
            pair = (package_of(source), package_of(target))
            if pair[0] != pair[1]:
                arrows.setdefault(pair, (source, target))
    return arrows


def allowed(source: str, target: str) -> bool:
    if source in ROOTS:
        return True
    if target in ROOTS or source not in ORDER or target not in ORDER:
        return False
    return ORDER.index(target) < ORDER.index(source)


def forbidden_arrows(graph: dict[str, set[str]]) -> list[str]:
    return [f"{a} -> {b} ({example[0]} imports {example[1]})"
            for (a, b), example in package_arrows(graph).items() if not allowed(a, b)]


def two_way_pairs(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    arrows = package_arrows(graph)
    return sorted((a, b) for a, b in arrows if a < b and (b, a) in arrows)


def readme_order(text: str) -> list[str]:
    """The packages the README's layout names, in its order: lines "- `name/` ..." or "- `name.py` ..."."""
    section = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\s*[-*] `([a-z_]+)(?:/|\.py)`", section, flags=re.MULTILINE)


def test_every_arrow_between_packages_points_down():
    assert forbidden_arrows(import_graph()) == []


def test_no_two_packages_import_each_other():
    assert two_way_pairs(import_graph()) == []


def test_every_package_has_a_place():
    packages = {package_of(module) for module in import_graph()}
    assert packages <= set(ORDER) | ROOTS, f"place these in ORDER or ROOTS: {packages - set(ORDER) - ROOTS}"


def test_the_readme_lists_the_packages_in_this_order():
    listed = [name for name in readme_order(README.read_text()) if name in ORDER]
    assert listed == ORDER


def test_the_readme_names_every_package():
    packages = {package_of(module) for module in import_graph()} - {"__init__"}
    assert packages <= set(readme_order(README.read_text()))


def test_a_planted_arrow_upwards_is_caught():
    graph = import_graph()
    planted = {**graph, "servicematch.delivery.worker": graph["servicematch.delivery.worker"]
               | {"servicematch.privacy.notices"}}
    assert forbidden_arrows(planted) == [
        "delivery -> privacy (servicematch.delivery.worker imports servicematch.privacy.notices)"]
    plumbing_upwards = {**graph, "servicematch.mail.transport": {"servicematch.delivery.outbox"}}
    assert any(arrow.startswith("mail -> delivery") for arrow in forbidden_arrows(plumbing_upwards))
    into_a_root = {**graph, "servicematch.console.leads": graph["servicematch.console.leads"] | {"servicematch.app"}}
    assert any(arrow.startswith("console -> app") for arrow in forbidden_arrows(into_a_root))


def test_a_planted_two_way_pair_is_caught():
    graph = import_graph()
    planted = {**graph, "servicematch.address.router": graph["servicematch.address.router"]
               | {"servicematch.intake.checks"},
               "servicematch.intake.checks": graph["servicematch.intake.checks"] | {"servicematch.address.router"}}
    assert ("address", "intake") in two_way_pairs(planted)


def test_the_readme_order_is_read_from_its_layout():
    text = "# x\n- `app.py` no\n## Layout\n- `kernel/` clock\n  - `db/` sessions\n- `app.py` root\n## Next\n- `console/`\n"
    assert readme_order(text) == ["kernel", "db", "app"]
