"""The site's index.html, filled in per request: head tags, the page's markup and its data."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import Any

from .metadata import PageMeta, head_html

# The built index.html carries a default title and description; each response replaces them.
_DEFAULT_HEAD = re.compile(r'\s*<title>.*?</title>|\s*<meta name="description"[^>]*>', re.DOTALL)
# Vite names the entry's imports as modulepreload links. The page's content is in its HTML, so
# the scripts only make it interactive: fetched ahead, their ~110 KB compete with the HTML and the
# stylesheet for a phone's bandwidth and delay the first paint (Lighthouse mobile: FCP 2.2-2.5 s
# with them, 1.1-1.6 s without; Performance 94-96 with them, 98-100 without).
_MODULE_PRELOADS = re.compile(r'\s*<link rel="modulepreload"[^>]*>')
_ROOT = '<div id="root"></div>'
# frontend/src/lib/initial-data.ts reads the block by this id.
DATA_ELEMENT_ID = "initial-data"


def json_script(element_id: str, data: Any) -> str:
    """A non-executing JSON block; `<` is escaped so no value can close the element."""
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")
    return f'<script type="application/json" id="{element_id}">{body}</script>'


class SiteDocument:
    """An HTML entry of the build, read once per change on disk, rendered per request."""

    def __init__(self, index_file: Path) -> None:
        self._file = index_file
        self._mtime: float | None = None
        self._template = ""

    def available(self) -> bool:
        return self._file.is_file()

    def _load(self) -> str:
        mtime = self._file.stat().st_mtime
        if mtime != self._mtime:
            self._template = _MODULE_PRELOADS.sub("", _DEFAULT_HEAD.sub("", self._file.read_text(encoding="utf-8")))
            self._mtime = mtime
        return self._template

    def render(self, meta: PageMeta, brand: str, *, markup: str | None = None,
               data: Mapping[str, Any] | None = None, privacy_control: bool = False) -> str:
        """The page with its head tags and content, readable before any script runs.

        `markup` is the page as React rendered it at build time; the app hydrates it. Without it
        (pages that depend on the visitor's earlier steps, or a build from other data) the root
        holds the page's heading and lead text until the app renders. `data` holds the answers
        of the API reads the first render makes.
        """
        html = self._load().replace("</head>", f"    {head_html(meta, brand)}\n  </head>", 1)
        if privacy_control:
            # The request came with Sec-GPC: 1; the app reads this after hydrating and says so.
            html = html.replace("<html ", '<html data-gpc="1" ', 1)
        if markup is not None:
            root = f'<div id="root" data-prerendered="">{markup}</div>'
        else:
            root = (
                '<div id="root"><main class="prerender-hero">'
                f"<h1>{escape(meta.heading)}</h1><p>{escape(meta.lead)}</p></main></div>"
            )
        if data is not None:
            root += "\n    " + json_script(DATA_ELEMENT_ID, data)
        return html.replace(_ROOT, root, 1)
