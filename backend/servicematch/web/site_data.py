"""The data a page's first render reads, as the API answers it, and its fingerprint.

The server puts the answers to a page's first API reads into its HTML (a non-executing
`<script type="application/json">` block), so the app renders without waiting for the network.
The build renders every public page ahead of time from the same data
(`python -m servicematch.web.site_data` exports it, frontend/scripts/prerender.mjs renders);
the fingerprint tells the server whether those pages were rendered from the data it would
send now. When they were not (the catalogue or the brand changed since the build), it sends
the page without the rendered HTML and the app draws it in the browser: a stale page would not
hydrate.
"""

from __future__ import annotations

import hashlib
import json
import sys
from datetime import UTC, datetime
from typing import Any

from fastapi import Response

from servicematch.catalog.loader import CatalogIndex
from servicematch.catalog.router import read_catalog, service_detail
from servicematch.settings import Settings

from .pages import data_reads, prerender_paths, resolve_page

# Values of the public config that no page draws: they differ between the build and the server
# (the origin names the server's port in tests) without changing the HTML.
_NOT_RENDERED = {"siteOrigin"}
# A path no route matches: its rendered markup is the router's error screen, sent for every unknown URL.
ERROR_SCREEN_PATH = "/404"


class SiteData:
    """The catalogue and service answers of the API, serialized once per process."""

    def __init__(self, index: CatalogIndex, settings: Settings) -> None:
        self._index = index
        self._settings = settings
        self.catalog: dict[str, Any] = read_catalog(index, settings, Response())
        self._services: dict[str, dict[str, Any]] = {}

    def read(self, api_path: str) -> dict[str, Any] | None:
        """The answer of GET <api_path> for the catalogue and service reads; None for anything else."""
        if api_path == "/api/catalog":
            return self.catalog
        parts = api_path.removeprefix("/api/services/").split("/")
        if not api_path.startswith("/api/services/") or len(parts) not in (1, 2):
            return None
        service = self._index.find(parts[-1], parts[0] if len(parts) == 2 else None)
        if service is None:
            return None
        if api_path not in self._services:
            self._services[api_path] = service_detail(self._index, service, self._settings.brand_name)
        return self._services[api_path]

    def fingerprint(self, year: int | None = None) -> str:
        """A hash of everything the rendered pages depend on: catalogue, services, brand, and the
        year (the footer's copyright line), so a page rendered last December is not sent in January."""
        catalog = {**self.catalog, "config": {k: v for k, v in self.catalog["config"].items() if k not in _NOT_RENDERED}}
        services = {s.id + "/" + s.vertical: service_detail(self._index, s, self._settings.brand_name)
                    for s in self._index.catalog.services}
        year = year if year is not None else datetime.now(UTC).year
        body = json.dumps([catalog, services, year], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(body.encode()).hexdigest()

    def export(self) -> dict[str, Any]:
        """What the build's prerender script needs: every page to render and the data each reads."""
        pages = []
        data: dict[str, Any] = {}
        for path in prerender_paths(self._index):
            reads = data_reads(resolve_page(self._index, path))
            for read in reads:
                data.setdefault(read, self.read(read))
            pages.append({"path": path, "reads": reads})
        # The router's error screen, which the server sends for every URL no route matches.
        pages.append({"path": ERROR_SCREEN_PATH, "reads": ["/api/catalog"], "unmatched": True})
        data.setdefault("/api/catalog", self.read("/api/catalog"))
        return {"fingerprint": self.fingerprint(), "pages": pages, "data": data}


def main() -> None:
    from servicematch.catalog.loader import load_catalog

    settings = Settings()
    json.dump(SiteData(load_catalog(settings.catalog_dir), settings).export(), sys.stdout, separators=(",", ":"))


if __name__ == "__main__":
    main()
