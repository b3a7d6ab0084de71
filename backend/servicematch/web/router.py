"""Static site serving: files as themselves, every route as index.html with its own metadata."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response

from servicematch.catalog.loader import CatalogIndex
from servicematch.errors import error_body
from servicematch.inbound.client import sends_global_privacy_control
from servicematch.settings import Settings

from .chunks import ChunkManifest
from .compressed import CompressedFiles, accepts_gzip
from .document import SiteDocument
from .metadata import page_meta
from .pages import data_reads, resolve_page, sitemap_paths
from .prerendered import PrerenderedPages
from .routes import match_route
from .site_data import ERROR_SCREEN_PATH, SiteData

# Vite puts content-hashed bundles under /assets: their names change with their content.
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
NOT_BUILT = (
    "<!doctype html><title>ServiceMatch</title><h1>The site is not built yet</h1>"
    "<p>Run <code>make run</code> (or <code>make build</code>) to build the frontend.</p>"
)
# The console's and the portal's pages: built pages of their own, kept out of search engines.
NOINDEX = {"X-Robots-Tag": "noindex, nofollow", "Cache-Control": REVALIDATE}


def entry_page(page: Path, title: str) -> Response:
    """A route's own built page (routes.json "entry"), never indexed; 503 until it is built."""
    if not page.is_file():
        return HTMLResponse(f"<!doctype html><meta name=robots content=noindex><title>{title}</title>"
                            f"<h1>The {title.lower()} is not built yet</h1><p>Run <code>make build</code>.</p>",
                            status_code=503, headers=NOINDEX)
    return FileResponse(page, media_type="text/html", headers=NOINDEX)


def _resolve_file(static_dir: Path, path: str) -> Path | None:
    """The file under static_dir named by a URL path, refusing anything that escapes it."""
    if not path or any(part.startswith(".") for part in path.split("/")):
        return None  # dot-files and dot-folders (.vite/manifest.json) are the build's, not the site's
    candidate = (static_dir / path).resolve()
    root = static_dir.resolve()
    if root not in candidate.parents or not candidate.is_file() or candidate.suffix == ".html":
        return None
    if (root / "prerender") in candidate.parents:
        return None  # the pages' markup is served inside their HTML only
    return candidate


def install_site(app: FastAPI, settings: Settings, catalog: CatalogIndex) -> None:
    """Register robots.txt, sitemap.xml, page metadata and the catch-all route (last, so the API wins)."""
    router = APIRouter(include_in_schema=False)
    static_dir = settings.static_dir
    document = SiteDocument(static_dir / "index.html")
    chunks = ChunkManifest(static_dir / ".vite" / "manifest.json")
    origin = settings.site_origin.rstrip("/")
    brand = settings.brand_name
    site_data = SiteData(catalog, settings)
    prerendered = PrerenderedPages(static_dir / "prerender", site_data.fingerprint(), chunks.entry_file)
    compressed = CompressedFiles()

    @router.get("/robots.txt")
    def robots() -> PlainTextResponse:
        body = f"User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: {origin}/sitemap.xml\n"
        return PlainTextResponse(body, headers={"Cache-Control": "public, max-age=3600"})

    @router.get("/sitemap.xml")
    def sitemap() -> Response:
        urls = "".join(f"<url><loc>{origin}{path}</loc></url>" for path in sitemap_paths(catalog))
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>'
            f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'
        )
        return Response(body, media_type="application/xml", headers={"Cache-Control": "public, max-age=3600"})

    @router.get("/api/page-meta", include_in_schema=True, tags=["catalog"],
                summary="Title, description, canonical link and structured data of a site path")
    def read_page_meta(path: str = "/") -> dict[str, object]:
        meta = page_meta(catalog, resolve_page(catalog, path), origin=origin, brand=brand)
        return {
            "title": meta.full_title(brand), "description": meta.description, "keywords": meta.keywords,
            "canonical": meta.canonical, "jsonLd": meta.json_ld, "found": meta.status_code == 200,
            "indexable": meta.indexable,
        }

    @router.api_route("/api/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
    def unknown_api_route(rest: str) -> JSONResponse:
        return JSONResponse(error_body("Not Found"), status_code=404)

    @router.get("/{path:path}")
    def site(path: str, request: Request) -> Response:
        file = _resolve_file(static_dir, path)
        if file is not None:
            immutable = path.startswith("assets/")
            headers = {"Cache-Control": IMMUTABLE if immutable else REVALIDATE}
            gzip_wanted = accepts_gzip(request.headers.get("accept-encoding", ""))
            if immutable and gzip_wanted and compressed.worth_compressing(file):
                body = compressed.gzipped(file)
                if body is not None:  # GZipMiddleware passes an encoded body through untouched
                    return Response(body, media_type=mimetypes.guess_type(file.name)[0] or "text/plain",
                                    headers={**headers, "Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
            return FileResponse(file, headers=headers)
        page = resolve_page(catalog, request.url.path)
        if page.route is not None and page.route.entry != "index.html":
            return entry_page(static_dir / page.route.entry, page.route.title or "page")
        if not document.available():
            return HTMLResponse(NOT_BUILT, status_code=503)
        meta = page_meta(catalog, page, origin=origin, brand=brand)
        # Unknown pages still get the app (it draws the error screen) but say 404 to crawlers.
        markup = prerendered.markup(page.path) if page.route and page.route.prerender else None
        if match_route(page.path) is None:  # the router's error screen, the same for every unknown URL
            markup = prerendered.markup(ERROR_SCREEN_PATH)
        html = document.render(meta, brand, markup=markup,
                               data={read: site_data.read(read) for read in data_reads(page)},
                               privacy_control=sends_global_privacy_control(request))
        return HTMLResponse(html, status_code=meta.status_code,
                            headers={"Cache-Control": REVALIDATE, "Vary": "Sec-GPC"})

    app.include_router(router)
