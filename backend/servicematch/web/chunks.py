"""Which built JavaScript chunks each page needs, from Vite's manifest (dist/.vite/manifest.json).

Each screen of the site is its own chunk, loaded by the app once it runs. Naming those chunks
in the HTML (`modulepreload`) lets the browser fetch them alongside the app's entry script
instead of after it, which takes a network round trip off the time to a usable page.
"""

from __future__ import annotations

import json
from pathlib import Path

from .pages import Page


def screen_module(page: Page) -> str | None:
    """The source module of the lazily loaded screen for a page (each screen is its own chunk,
    frontend/src/app/route-table.tsx); None for a page without one."""
    if page.kind == "not-found" or page.route is None:
        return None
    screen = page.route.screen
    if screen is None:
        return None
    return f"src/pages/{screen}.tsx"


class ChunkManifest:
    """Vite's manifest, read once per change on disk; absent (a development checkout) means no hints."""

    def __init__(self, manifest_file: Path) -> None:
        self._file = manifest_file
        self._mtime: float | None = None
        self._chunks: dict[str, dict] = {}

    def _load(self) -> dict[str, dict]:
        try:
            mtime = self._file.stat().st_mtime
        except FileNotFoundError:
            return {}
        if mtime != self._mtime:
            self._chunks = json.loads(self._file.read_text(encoding="utf-8"))
            self._mtime = mtime
        return self._chunks

    def entry_file(self) -> str | None:
        """The built entry script of the public site (dist/assets/main-<hash>.js), None without a build."""
        return self._load().get("index.html", {}).get("file")

    def module_urls(self, module: str | None) -> list[str]:
        """URLs of the module's chunk and the chunks it imports, less those index.html already loads."""
        chunks = self._load()
        if module is None or module not in chunks:
            return []
        entry = chunks.get("index.html", {})
        already_loaded = {"index.html", *entry.get("imports", [])}
        urls: list[str] = []
        pending, seen = [module], set(already_loaded)
        while pending:
            key = pending.pop(0)
            if key in seen or key not in chunks:
                continue
            seen.add(key)
            urls.append("/" + chunks[key]["file"])
            pending.extend(chunks[key].get("imports", []))
        return urls
