"""The site's index.html with each path's metadata and hero text filled in on the server."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from pathlib import Path

from .metadata import PageMeta, head_html

# The built index.html carries a default title and description; each response replaces them.
_DEFAULT_HEAD = re.compile(r'\s*<title>.*?</title>|\s*<meta name="description"[^>]*>', re.DOTALL)
_ROOT = '<div id="root"></div>'


class SiteDocument:
    """index.html, read once per change on disk, rendered per request with a page's metadata."""

    def __init__(self, index_file: Path) -> None:
        self._file = index_file
        self._mtime: float | None = None
        self._template = ""

    def available(self) -> bool:
        return self._file.is_file()

    def _load(self) -> str:
        mtime = self._file.stat().st_mtime
        if mtime != self._mtime:
            self._template = _DEFAULT_HEAD.sub("", self._file.read_text(encoding="utf-8"))
            self._mtime = mtime
        return self._template

    def render(self, meta: PageMeta, brand: str, *, api_reads: Sequence[str] = (),
               module_urls: Sequence[str] = ()) -> str:
        """The page with head tags and a visible hero, readable before any script runs.

        The page's screen chunks and the app's first API reads are preloaded, so they travel
        alongside the entry script instead of waiting for it to run (`crossorigin` makes each
        preload match the request the app makes later).
        """
        preloads = "".join(
            f'\n    <link rel="modulepreload" crossorigin href="{escape(url)}">' for url in module_urls
        ) + "".join(
            f'\n    <link rel="preload" href="{escape(url)}" as="fetch" crossorigin="anonymous">' for url in api_reads
        )
        html = self._load().replace("</head>", f"    {head_html(meta, brand)}{preloads}\n  </head>", 1)
        hero = (
            '<div id="root"><main class="prerender-hero">'
            f"<h1>{escape(meta.heading)}</h1><p>{escape(meta.lead)}</p></main></div>"
        )
        return html.replace(_ROOT, hero, 1)
