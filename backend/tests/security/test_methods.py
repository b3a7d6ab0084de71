"""HEAD answers as GET without a body; a known path with a method it does not take is a 405."""

from __future__ import annotations

import pytest

HEAD_PATHS = ["/", "/services/hvac", "/api/health", "/api/catalog", "/robots.txt", "/sitemap.xml",
              "/assets/app-1234.js", "/no-such-page"]


@pytest.mark.parametrize("path", HEAD_PATHS)
def test_head_answers_as_get_without_a_body(client, path):
    get = client.get(path)
    head = client.head(path)
    assert head.status_code == get.status_code, path
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]
    assert head.headers.get("content-length") == get.headers.get("content-length")


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("GET", "/api/validate", "POST"),
    ("DELETE", "/api/submit-form", "POST"),
    ("PUT", "/api/health", "GET, HEAD"),
    ("POST", "/api/catalog", "GET, HEAD"),
    ("DELETE", "/api/csp-report", "POST"),
    ("POST", "/services/hvac", None),
    ("PUT", "/", None),
])
def test_an_unsupported_method_is_405_not_404(client, method, path, allow):
    response = client.request(method, path)
    assert response.status_code == 405, (method, path, response.text)
    assert response.json()["error"] == "Method Not Allowed"
    if allow:
        assert response.headers["allow"] == allow


def test_unknown_api_paths_are_still_404(client):
    for method in ("GET", "POST", "DELETE"):
        assert client.request(method, "/api/nothing-here").status_code == 404


def test_a_path_answers_the_same_each_time_its_methods_are_looked_up(client):
    # MethodNotAllowed keeps what it found for a method and path: the second ask of each must be
    # answered as the first, and a path's 405 must not change what another method of it gets.
    for _ in range(2):
        assert client.put("/api/health").headers["allow"] == "GET, HEAD"
        assert client.get("/api/health").status_code == 200
        assert client.head("/api/health").status_code == 200
        assert client.get("/api/validate").headers["allow"] == "POST"


def test_long_paths_are_judged_like_short_ones(client):
    # Paths past KEPT_PATH_LENGTH are matched afresh each time rather than kept.
    short, long = (client.put(f"/api/console/providers/{'x' * length}") for length in (8, 300))
    assert short.status_code == long.status_code == 405
    assert long.headers["allow"] == short.headers["allow"]
