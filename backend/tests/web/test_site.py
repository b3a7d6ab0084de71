"""The built site is served for every route; files and the API keep precedence."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    "path",
    ["/", "/legal/auto-accident/tx", "/services/roofing", "/form/hvac/ca", "/about-us", "/thank-you",
     "/category/legal", "/financial/home-loan"],
)
def test_every_route_answers_with_the_site(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<div id="root">' in response.text
    assert 'src="/assets/app-1234.js"' in response.text


@pytest.mark.parametrize(
    "path", ["/no/such/page", "/services/unicorn-grooming", "/category/pets", "/legal/auto-accident/zz",
             "/legal/hvac"],
)
def test_unknown_pages_get_the_app_with_a_404_status(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert '<div id="root">' in response.text


@pytest.mark.parametrize("path", ["/", "/services/unicorn-grooming"])
def test_a_page_asked_for_with_global_privacy_control_is_marked_for_the_app(client, path):
    marked = client.get(path, headers={"Sec-GPC": "1"})
    assert '<html data-gpc="1" ' in marked.text
    assert "Sec-GPC" in marked.headers["vary"]
    assert "data-gpc" not in client.get(path).text


def test_hashed_assets_are_cached_for_a_year(client):
    response = client.get("/assets/app-1234.js")
    assert response.status_code == 200
    assert "immutable" in response.headers["cache-control"]
    assert response.text == "console.log('app')"


def test_a_bundle_is_gzipped_once_and_sent_as_it_is_to_whoever_accepts_gzip(client, static_dir, monkeypatch):
    import gzip

    from servicematch.web import compressed

    bundle = static_dir / "assets" / "big-5678.js"
    source = "export const words = " + repr(["lead"] * 400) + "\n"
    bundle.write_text(source)
    compressions = []
    real_compress = gzip.compress
    monkeypatch.setattr(compressed.gzip, "compress", lambda *a, **k: compressions.append(1) or real_compress(*a, **k))

    first = client.get("/assets/big-5678.js", headers={"Accept-Encoding": "gzip"})
    again = client.get("/assets/big-5678.js", headers={"Accept-Encoding": "br, gzip;q=0.8"})
    for answer in (first, again):
        assert answer.status_code == 200 and answer.headers["content-encoding"] == "gzip"
        assert answer.headers["content-type"].startswith("text/javascript")
        assert answer.headers["vary"] == "Accept-Encoding" and "immutable" in answer.headers["cache-control"]
        assert answer.text == source  # the client undoes the gzip
    assert len(compressions) == 1

    plain = client.get("/assets/big-5678.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == source
    small = client.get("/assets/app-1234.js", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers and small.text == "console.log('app')"


@pytest.mark.parametrize(("header", "accepted"), [
    ("gzip", True), ("gzip, deflate, br", True), ("br;q=1.0, gzip;q=0.5", True), ("*", True),
    ("", False), ("identity", False), ("gzip;q=0", False), ("GZIP;Q=0.0", False), ("deflate", False),
    ("gzip;q=nonsense", False)])
def test_accept_encoding_is_read_as_http_says(header, accepted):
    from servicematch.web.compressed import accepts_gzip

    assert accepts_gzip(header) is accepted


def test_paths_cannot_escape_the_site_folder(client):
    response = client.get("/..%2f..%2fetc/passwd")
    assert "root:" not in response.text


def test_unknown_api_route_is_a_json_404(client):
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.json() == {"error": "Not Found", "fields": {}}


def test_openapi_and_docs_are_served(client):
    assert client.get("/openapi.json").json()["info"]["title"] == "ServiceMatch API"
    assert client.get("/docs").status_code == 200


def test_health_reaches_the_database(client):
    assert client.get("/api/health").json() == {"status": "ok"}


def test_unknown_api_route_is_a_404_for_any_method(client):
    for method in ("post", "put", "delete"):
        response = getattr(client, method)("/api/no-such-thing")
        assert response.status_code == 404
        assert response.json()["error"] == "Not Found"
