"""The backend's package graph: every arrow between packages, the two-way pairs, and any arrow
against the order that backend/tests/kernel/test_package_arrows.py enforces (and the README lists).

    python3 -m uv run --frozen python scripts/package_graph.py
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend" / "tests" / "kernel"))

from test_import_graph import import_graph
from test_package_arrows import ORDER, ROOTS, forbidden_arrows, package_arrows, two_way_pairs


def main() -> None:
    graph = import_graph()
    imports: dict[str, set[str]] = defaultdict(set)
    for source, target in package_arrows(graph):
        imports[source].add(target)
    print(f"{len(graph)} modules; packages bottom to top, then the roots:")
    for package in [*ORDER, *sorted(ROOTS - {'__init__'})]:
        print(f"  {package:<15} -> {' '.join(sorted(imports[package])) or '(nothing)'}")
    pairs = two_way_pairs(graph)
    print(f"two-way pairs: {len(pairs)}")
    for a, b in pairs:
        print(f"  {a} <-> {b}")
    against = forbidden_arrows(graph)
    print(f"arrows against the order: {len(against)}")
    for arrow in against:
        print(f"  {arrow}")


if __name__ == "__main__":
    main()
