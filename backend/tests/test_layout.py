"""backend/tests mirrors backend/servicematch: a test lives in the folder named after the package
(or module) whose code it tests, and each package has its folder. Support modules and fixtures
that several folders share sit at the top of backend/tests (delivery_fixtures.py, ...)."""

from __future__ import annotations

from pathlib import Path

import servicematch

PACKAGE = Path(servicematch.__file__).resolve().parent
TESTS = Path(__file__).resolve().parent
# Tests of the tests themselves, not of a module of servicematch.
ABOUT_THE_TESTS = {"test_layout.py", "test_route_build_cache.py"}
# Packages of servicematch with no folder of tests (none today; name one here only with a reason).
WITHOUT_TESTS: set[str] = set()


def _is_package(path: Path) -> bool:
    return path.is_dir() and (path / "__init__.py").is_file()


def _folders_with_tests() -> list[Path]:
    folders = {path.parent for path in TESTS.rglob("test_*.py")}
    return sorted(folder.relative_to(TESTS) for folder in folders
                  if folder != TESTS and not any(part.startswith((".", "__")) for part in folder.parts))


def test_each_folder_of_tests_is_named_after_a_package_or_module():
    strays = [str(folder) for folder in _folders_with_tests()
              if not (_is_package(PACKAGE / folder) or (PACKAGE / folder).with_suffix(".py").is_file())]
    assert strays == [], f"folders of tests named after no package or module of servicematch: {strays}"


def test_each_test_at_the_top_is_named_after_a_module_at_the_top():
    strays = [path.name for path in TESTS.glob("test_*.py")
              if path.name not in ABOUT_THE_TESTS and not (PACKAGE / path.name.removeprefix("test_")).is_file()]
    assert strays == [], f"tests at the top of backend/tests named after no module of servicematch: {strays}"


def test_each_package_has_its_folder_of_tests():
    packages = {path.name for path in PACKAGE.iterdir() if _is_package(path)}
    folders = {folder.parts[0] for folder in _folders_with_tests()}
    assert sorted(packages - WITHOUT_TESTS - folders) == []
    assert sorted(WITHOUT_TESTS & folders) == [], "a package listed WITHOUT_TESTS has tests now"
