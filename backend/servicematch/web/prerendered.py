"""Pages rendered at build time (frontend/scripts/prerender.mjs writes them to dist/prerender/).

dist/prerender/manifest.json names the data fingerprint they were rendered from and the entry
script of the build they go with; each page's markup (what goes inside `<div id="root">`) is a
gzip file named after its path.
"""

from __future__ import annotations

import gzip
import json
import logging
from collections.abc import Callable
from pathlib import Path

logger = logging.getLogger(__name__)


def page_file(prerender_dir: Path, path: str) -> Path:
    """Where the markup of a path is kept: / is index.html.gz, /a/b is a/b.html.gz."""
    name = path.strip("/") or "index"
    return prerender_dir / f"{name}.html.gz"


class PrerenderedPages:
    """The build's rendered pages, used only while they match the data the server sends."""

    def __init__(self, prerender_dir: Path, fingerprint: str, current_entry: Callable[[], str | None]) -> None:
        self._dir = prerender_dir
        self._fingerprint = fingerprint
        self._current_entry = current_entry  # the entry script of the browser bundle being served
        self._checked: tuple[float, str | None] | None = None
        self._fresh = False

    def _is_fresh(self) -> bool:
        manifest = self._dir / "manifest.json"
        try:
            mtime = manifest.stat().st_mtime
        except FileNotFoundError:
            return False
        entry = self._current_entry()
        if (mtime, entry) != self._checked:
            self._checked = (mtime, entry)
            built = json.loads(manifest.read_text(encoding="utf-8"))
            self._fresh = built.get("fingerprint") == self._fingerprint and built.get("entry") == entry
            if not self._fresh:
                logger.warning("The prerendered pages in %s were built from other catalogue data, settings or "
                               "code; pages render in the browser until `make build` runs again.", self._dir)
        return self._fresh

    def markup(self, path: str) -> str | None:
        """The rendered markup of a page, or None (not rendered, or rendered from other data)."""
        if not self._is_fresh():
            return None
        file = page_file(self._dir, path)
        if self._dir.resolve() not in file.resolve().parents:
            return None
        try:
            return gzip.decompress(file.read_bytes()).decode("utf-8")
        except FileNotFoundError:
            return None
