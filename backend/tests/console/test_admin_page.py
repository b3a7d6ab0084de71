"""GET /admin and /admin/* answer the console's own page, kept out of search engines."""

from __future__ import annotations

import shutil

from fastapi.testclient import TestClient

from servicematch.app import create_app

ADMIN_HTML = '<!doctype html><html><head><meta name="robots" content="noindex"></head><body>console</body></html>'


def test_console_paths_answer_admin_html_with_noindex(settings, static_dir, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(static_dir, site)
    (site / "admin.html").write_text(ADMIN_HTML)
    app = create_app(settings.model_copy(update={"static_dir": site}))
    try:
        with TestClient(app) as client:
            for path in ("/admin", "/admin/", "/admin/leads/123", "/admin/providers"):
                answer = client.get(path)
                assert answer.status_code == 200, path
                assert answer.text == ADMIN_HTML
                assert answer.headers["x-robots-tag"] == "noindex, nofollow"
            # The public site's pages never carry the console's page.
            assert "console" not in client.get("/").text
    finally:
        app.state.engine.dispose()


def test_an_unbuilt_console_says_so(client):
    answer = client.get("/admin")
    assert answer.status_code == 503 and "not built" in answer.text
    assert answer.headers["x-robots-tag"] == "noindex, nofollow"
