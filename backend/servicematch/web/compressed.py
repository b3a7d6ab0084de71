"""The site's bundles gzipped once per process, not once per request.

Files under /assets are content-hashed and never change under their name, and every page load
fetches a dozen of them: compressing them on each request cost the server more CPU than anything
else it does for a visitor. Each is compressed the first time it is asked for, at the strongest
level, and kept in memory (the whole build is about 1 MB, 340 KB gzipped).
"""

from __future__ import annotations

import gzip
import threading
from pathlib import Path

# What gains from gzip: scripts, styles, SVG, JSON and text. Images and fonts are compressed already.
COMPRESSIBLE = {".js", ".mjs", ".css", ".svg", ".json", ".txt", ".map"}
# Below this, gzip's own header costs more than it saves (as GZipMiddleware's minimum in app.py).
MINIMUM_SIZE = 256


class CompressedFiles:
    """Gzipped bodies of static files, by path and modification time."""

    def __init__(self) -> None:
        self._bodies: dict[tuple[Path, int], bytes] = {}
        self._lock = threading.Lock()

    @staticmethod
    def worth_compressing(file: Path) -> bool:
        return file.suffix in COMPRESSIBLE

    def gzipped(self, file: Path) -> bytes | None:
        """The file's body gzipped, or None when it is too small to gain from it."""
        stat = file.stat()
        if stat.st_size < MINIMUM_SIZE:
            return None
        key = (file, stat.st_mtime_ns)
        body = self._bodies.get(key)
        if body is None:
            body = gzip.compress(file.read_bytes(), compresslevel=9, mtime=0)
            with self._lock:
                self._bodies[key] = body
        return body


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header admits gzip (named or as *, and not refused with q=0)."""
    for part in accept_encoding.lower().split(","):
        name, *params = (piece.strip() for piece in part.split(";"))
        if name not in ("gzip", "*"):
            continue
        for param in params:
            if param.startswith("q="):
                try:
                    return float(param[2:]) > 0
                except ValueError:
                    return False
        return True
    return False
