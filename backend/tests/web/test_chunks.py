"""Each page names the chunks of its screen (from Vite's manifest) so the browser fetches them early."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from servicematch.web.chunks import ChunkManifest, screen_module
from servicematch.web.pages import resolve_page
from servicematch.web.routes import routes

MANIFEST = {
    "index.html": {"file": "assets/index-1.js", "isEntry": True, "imports": ["_runtime-1.js"]},
    "_runtime-1.js": {"file": "assets/runtime-1.js"},
    "_lead-form-1.js": {"file": "assets/lead-form-1.js", "imports": ["_runtime-1.js", "_validation-1.js"]},
    "_validation-1.js": {"file": "assets/validation-1.js", "imports": ["index.html"]},
    "src/pages/service.tsx": {"file": "assets/service-1.js", "isDynamicEntry": True,
                              "imports": ["index.html", "_runtime-1.js", "_lead-form-1.js"]},
    "src/pages/about-us.tsx": {"file": "assets/about-us-1.js", "isDynamicEntry": True, "imports": ["index.html"]},
}


@pytest.fixture
def manifest(tmp_path) -> ChunkManifest:
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(MANIFEST))
    return ChunkManifest(path)


def test_a_screen_brings_its_imports_but_not_what_the_entry_loads(manifest):
    assert manifest.module_urls("src/pages/service.tsx") == [
        "/assets/service-1.js", "/assets/lead-form-1.js", "/assets/validation-1.js",
    ]
    assert manifest.module_urls("src/pages/about-us.tsx") == ["/assets/about-us-1.js"]


def test_screens_missing_from_the_manifest_or_no_manifest_give_no_hints(manifest, tmp_path):
    assert manifest.module_urls("src/pages/nothing.tsx") == []
    assert manifest.module_urls(None) == []
    assert ChunkManifest(tmp_path / "absent.json").module_urls("src/pages/service.tsx") == []


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("/", "src/pages/home.tsx"),
        ("/no/such/page", None),
        ("/services/unicorn-grooming", None),
        ("/marketing-partners", None),
        ("/about-us", "src/pages/about-us.tsx"),
        ("/category/legal", "src/pages/category.tsx"),
        ("/legal/auto-accident/tx", "src/pages/service.tsx"),
        ("/services/roofing", "src/pages/service.tsx"),
        ("/form/hvac", "src/pages/form.tsx"),
        ("/call/final-expense-ib/tx", "src/pages/call.tsx"),
        ("/thank-you", "src/pages/thank-you.tsx"),
    ],
)
def test_each_page_maps_to_its_screen_module(app, path, module):
    assert screen_module(resolve_page(app.state.catalog, path)) == module


# Screens another change is adding; the route table names them ahead of their page files.
PENDING_SCREENS = {"terms"}


def test_the_screen_modules_exist_in_the_frontend():
    # The route table names files in frontend/src/pages; a renamed screen must not go unnoticed.
    pages = Path(__file__).resolve().parents[3] / "frontend" / "src" / "pages"
    screens = {route.screen for route in routes() if route.screen} - PENDING_SCREENS
    assert screens
    for screen in screens:
        assert (pages / f"{screen}.tsx").is_file(), screen
