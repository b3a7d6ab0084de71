"""The package's modules import each other without a cycle, so any room can be read (and loaded) in order."""

from __future__ import annotations

import ast
from pathlib import Path

import servicematch

PACKAGE_ROOT = Path(servicematch.__file__).parent
PACKAGE = "servicematch"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, modules: set[str]) -> set[str]:
    """Every servicematch module `path` imports, wherever the import statement sits (functions included)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            # `from package import module` imports the module; `from module import name` the module.
            found.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                         for alias in node.names)
    return {target for target in found if target in modules and target != name}


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(path): path for path in PACKAGE_ROOT.rglob("*.py")}
    modules = set(paths)
    return {name: imported_modules(path, modules) for name, path in paths.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path that ends where it starts, or None (depth-first search)."""
    state: dict[str, str] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == "open":
                return [*stack[stack.index(target):], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_package_has_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_walk_sees_relative_function_level_and_package_imports():
    graph = import_graph()
    assert "servicematch.intake.service" in graph["servicematch.intake.writer"]  # from .service import ...
    assert "servicematch.kernel.orm" in graph["servicematch.intake.models"]
    assert "servicematch.delivery.models" in graph["servicematch.schema.registry"]  # from package import module


def test_a_cycle_is_found_when_there_is_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
