"""GET /pro and /pro/* answer the portal's own page, kept out of search engines and the sitemap."""

from __future__ import annotations

import shutil

from fastapi.testclient import TestClient

from servicematch.app import create_app

PRO_HTML = '<!doctype html><html><head><meta name="robots" content="noindex"></head><body>portal</body></html>'


def test_portal_paths_answer_pro_html_with_noindex(settings, static_dir, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(static_dir, site)
    (site / "pro.html").write_text(PRO_HTML)
    app = create_app(settings.model_copy(update={"static_dir": site}))
    try:
        with TestClient(app) as client:
            for path in ("/pro", "/pro/", "/pro/welcome", "/pro/security"):
                answer = client.get(path)
                assert answer.status_code == 200, path
                assert answer.text == PRO_HTML
                assert answer.headers["x-robots-tag"] == "noindex, nofollow"
                assert "script-src 'self'" in answer.headers["content-security-policy"]
            assert "portal" not in client.get("/").text and "/pro" not in client.get("/sitemap.xml").text
            assert client.get("/robots.txt").text == client.get("/robots.txt").text.replace("/pro", "")
            # The page is no file of its own: only the route serves it.
            assert client.get("/pro.html").status_code == 404
    finally:
        app.state.engine.dispose()


def test_an_unbuilt_portal_says_so(client):
    answer = client.get("/pro")
    assert answer.status_code == 503 and "provider portal is not built" in answer.text
    assert answer.headers["x-robots-tag"] == "noindex, nofollow"
