"""The built entry script, from Vite's manifest (dist/.vite/manifest.json).

The pages rendered at build time name the entry they were built against; the server serves
that markup only while the entry on disk is the same (web/prerendered.py). No chunk is named
ahead in the HTML: on a phone's bandwidth that delayed the first paint (web/document.py).
"""

from __future__ import annotations

import json
from pathlib import Path


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
