"""Arrows between packages point one way: a room imports only the rooms below it and the plumbing.

A lead flows down the rooms in LEVELS (intake, then delivery's outbox, privacy, routing, the
reports, the console); each may import the levels before it, never one after. Signing in
(`access`: passwords, sessions, throttling, the audit log) sits below the two rooms people sign
in to, the provider portal and the console. Plumbing (the
clock and ids, signing and the guarded HTTP client, SMTP, settings) imports no room. Composition
roots (app, cli, workers, the worker process, the model registry, the routes' dependencies, the
site) put the rooms together and may import any of them; no room imports a root but `db` and
`deps`, which rooms use for sessions and route dependencies.
"""

from __future__ import annotations

from test_import_graph import import_graph

PLUMBING = {"kernel", "outbound", "settings", "errors", "terminal", "mail"}
ROOTS = {"app", "cli", "workers", "worker_process", "devserver", "db", "deps", "web", "__init__"}
USED_BY_ROOMS = {"db", "deps"}
# Within a level, packages may import each other: intake checks addresses, and address
# suggestions share intake's per-client limits.
LEVELS = [
    {"catalog"},
    {"address", "intake"},
    {"events"},
    {"delivery"},
    {"privacy"},
    {"routing"},
    {"reporting"},
    {"access"},
    {"portal"},
    {"console", "ops", "security"},
]


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
    if source in PLUMBING:
        return target in PLUMBING
    if target in PLUMBING or target in USED_BY_ROOMS:
        return True
    level = {package: n for n, packages in enumerate(LEVELS) for package in packages}
    return source in level and target in level and level[target] <= level[source]


def forbidden_arrows(graph: dict[str, set[str]]) -> list[str]:
    return [f"{a} -> {b} ({example[0]} imports {example[1]})"
            for (a, b), example in package_arrows(graph).items() if not allowed(a, b)]


def test_every_arrow_between_packages_points_down():
    assert forbidden_arrows(import_graph()) == []


def test_every_package_has_a_place():
    packages = {package_of(module) for module in import_graph()}
    placed = PLUMBING | ROOTS | set().union(*LEVELS)
    assert packages <= placed, f"give these a level, or name them plumbing or a root: {packages - placed}"


def test_a_planted_arrow_upwards_is_caught():
    graph = import_graph()
    planted = {**graph, "servicematch.delivery.worker": graph["servicematch.delivery.worker"]
               | {"servicematch.privacy.notices"}}
    assert forbidden_arrows(planted) == [
        "delivery -> privacy (servicematch.delivery.worker imports servicematch.privacy.notices)"]
    plumbing_upwards = {**graph, "servicematch.mail.transport": {"servicematch.delivery.outbox"}}
    assert any(arrow.startswith("mail -> delivery") for arrow in forbidden_arrows(plumbing_upwards))
