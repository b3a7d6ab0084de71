"""The built entry script from Vite's manifest, and a page file for every screen the route table names."""

from __future__ import annotations

import json
from pathlib import Path

from servicematch.web.chunks import ChunkManifest
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


def test_the_entry_script_comes_from_the_manifest(tmp_path):
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(MANIFEST))
    assert ChunkManifest(path).entry_file() == "assets/index-1.js"
    assert ChunkManifest(tmp_path / "absent.json").entry_file() is None


def test_the_screen_modules_exist_in_the_frontend():
    # The route table names files in frontend/src/pages; a renamed screen must not go unnoticed.
    pages = Path(__file__).resolve().parents[3] / "frontend" / "src" / "pages"
    screens = {route.screen for route in routes() if route.screen}
    assert screens
    for screen in screens:
        assert (pages / f"{screen}.tsx").is_file(), screen
