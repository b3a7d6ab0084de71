"""The HTML preloads the app's first API reads, at the URLs the app will fetch them from."""

from __future__ import annotations

import re

import pytest

PRELOAD = re.compile(r'<link rel="preload" href="([^"]+)" as="fetch" crossorigin="anonymous">')


@pytest.mark.parametrize(
    ("path", "reads"),
    [
        ("/", ["/api/catalog"]),
        ("/category/legal", ["/api/catalog"]),
        ("/services/roofing", ["/api/catalog", "/api/services/roofing"]),
        ("/services/roofing/tx", ["/api/catalog", "/api/services/roofing"]),
        ("/legal/auto-accident/tx", ["/api/catalog", "/api/services/legal/auto-accident"]),
        ("/form/hvac/ca", ["/api/catalog", "/api/services/hvac"]),
        ("/call/final-expense-ib", ["/api/catalog", "/api/services/final-expense-ib"]),
    ],
)
def test_pages_preload_the_api_reads_their_app_makes(client, path, reads):
    assert PRELOAD.findall(client.get(path).text) == reads


@pytest.mark.parametrize("path", ["/services/unicorn-grooming", "/legal/hvac"])
def test_unknown_services_are_not_preloaded(client, path):
    # A preloaded 404 would show up as an error in the browser's console.
    assert PRELOAD.findall(client.get(path).text) == ["/api/catalog"]


def test_every_preloaded_read_answers(client):
    html = client.get("/legal/auto-accident/tx").text
    for url in PRELOAD.findall(html):
        assert client.get(url).status_code == 200, url
