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
