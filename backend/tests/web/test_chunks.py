"""Each page names the chunks of its screen (from Vite's manifest) so the browser fetches them early."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from servicematch.web.chunks import ChunkManifest, screen_module
from servicematch.web.pages import Page

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
    ("page", "module"),
    [
        (Page("home", "/"), None),
        (Page("not-found", "/no/such/page"), None),
        (Page("static", "/marketing-partners"), None),
        (Page("static", "/about-us"), "src/pages/about-us.tsx"),
        (Page("category", "/category/legal"), "src/pages/category.tsx"),
        (Page("service", "/legal/auto-accident/tx"), "src/pages/service.tsx"),
        (Page("service", "/services/roofing"), "src/pages/service.tsx"),
        (Page("funnel", "/form/hvac"), "src/pages/form.tsx"),
        (Page("funnel", "/call/final-expense-ib/tx"), "src/pages/call.tsx"),
        (Page("funnel", "/thank-you"), "src/pages/thank-you.tsx"),
    ],
)
def test_each_page_maps_to_its_screen_module(page, module):
    assert screen_module(page) == module


def test_the_screen_modules_exist_in_the_frontend():
    # The mapping names files in frontend/src/pages; a renamed screen must not go unnoticed.
    frontend = Path(__file__).resolve().parents[3] / "frontend"
    for path in ("/about-us", "/partner-with-us", "/privacy-policy", "/category/legal", "/form/hvac", "/call/x",
                 "/thank-you", "/call-thanks", "/disqualified"):
        kind = "category" if path.startswith("/category") else "static"
        module = screen_module(Page(kind, path))
        assert (frontend / module).is_file(), module
    assert (frontend / screen_module(Page("service", "/services/roofing"))).is_file()
