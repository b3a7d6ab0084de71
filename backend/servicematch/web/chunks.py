"""Which built JavaScript chunks each page needs, from Vite's manifest (dist/.vite/manifest.json).

Each screen of the site is its own chunk, loaded by the app once it runs. Naming those chunks
in the HTML (`modulepreload`) lets the browser fetch them alongside the app's entry script
instead of after it, which takes a network round trip off the time to a usable page.
"""

from __future__ import annotations

import json
from pathlib import Path

from .pages import Page

# Screens under frontend/src/pages/ that a first path segment names directly.
_SCREEN_BY_HEAD = {"form": "form", "call": "call", "category": "category"}


def screen_module(page: Page) -> str | None:
    """The source module of the lazily loaded screen for a page; None when it is in the entry chunk."""
    head = page.path.strip("/").split("/")[0]
    if page.kind in ("home", "not-found") or head == "marketing-partners":
        return None
    if page.kind == "service":
        return "src/pages/service.tsx"
    return f"src/pages/{_SCREEN_BY_HEAD.get(head, head)}.tsx"


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
