"""The console's and the portals' pages: /admin/*, /pro/* and /buyer/* answer their own built page
(admin.html, pro.html, buyer.html), kept out of search engines and the sitemap, under the site's CSP."""

from __future__ import annotations

import shutil

import pytest
from fastapi.testclient import TestClient

from servicematch.app import create_app

ENTRIES = [("admin.html", "console", ("/admin", "/admin/", "/admin/leads/123", "/admin/providers")),
           ("pro.html", "portal", ("/pro", "/pro/", "/pro/welcome", "/pro/security")),
           ("buyer.html", "buyer portal", ("/buyer", "/buyer/", "/buyer/welcome", "/buyer/leads/123", "/buyer/settings"))]


@pytest.mark.parametrize(("entry", "word", "paths"), ENTRIES, ids=["console", "portal", "buyer-portal"])
def test_entry_paths_answer_their_page_with_noindex(settings, static_dir, tmp_path, entry, word, paths):
    site = tmp_path / "site"
    shutil.copytree(static_dir, site)
    page = f'<!doctype html><html><head><meta name="robots" content="noindex"></head><body>{word}</body></html>'
    (site / entry).write_text(page)
    app = create_app(settings.model_copy(update={"static_dir": site}))
    try:
        with TestClient(app) as client:
            for path in paths:
                answer = client.get(path)
                assert answer.status_code == 200, path
                assert answer.text == page
                assert answer.headers["x-robots-tag"] == "noindex, nofollow"
                assert "script-src 'self'" in answer.headers["content-security-policy"]
            # The public site's pages never carry it, the sitemap never lists it, nor is it a file of its own.
            assert word not in client.get("/").text
            assert paths[0] not in client.get("/sitemap.xml").text
            assert client.get(f"/{entry}").status_code == 404
    finally:
        app.state.engine.dispose()


@pytest.mark.parametrize(("path", "says"), [("/admin", "console is not built"),
                                            ("/pro", "provider portal is not built"),
                                            ("/buyer/leads", "buyer portal is not built")],
                         ids=["console", "portal", "buyer-portal"])
def test_an_unbuilt_entry_says_so(client, path, says):
    answer = client.get(path)
    assert answer.status_code == 503 and says in answer.text
    assert answer.headers["x-robots-tag"] == "noindex, nofollow"
