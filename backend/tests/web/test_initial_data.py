"""The HTML carries the answers of the app's first API reads, so its first render needs no fetch."""

from __future__ import annotations

import json
import re

import pytest

DATA = re.compile(r'<script type="application/json" id="initial-data">(.*?)</script>', re.DOTALL)
SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>", re.DOTALL)


def initial_data(html: str) -> dict:
    blocks = DATA.findall(html)
    assert len(blocks) == 1
    return json.loads(blocks[0])


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
def test_pages_carry_the_answers_of_their_first_reads(client, path, reads):
    data = initial_data(client.get(path).text)
    assert list(data) == reads
    for read in reads:
        assert data[read] == client.get(read).json(), read


@pytest.mark.parametrize("path", ["/services/unicorn-grooming", "/legal/hvac"])
def test_unknown_services_carry_only_the_catalogue(client, path):
    assert list(initial_data(client.get(path).text)) == ["/api/catalog"]


def test_no_inline_script_executes(client):
    # A Content-Security-Policy without 'unsafe-inline' for scripts must not break any page.
    html = client.get("/legal/auto-accident/tx").text
    for match in SCRIPT.finditer(html):
        attrs = match.group("attrs")
        assert 'type="application/json"' in attrs or 'type="application/ld+json"' in attrs or "src=" in attrs, attrs


def test_no_catalogue_text_can_close_the_data_block():
    from servicematch.web.document import json_script

    hostile = "</script><script>alert(1)</script><!--"
    block = json_script("initial-data", {"text": hostile})
    body = DATA.search(block).group(1)
    assert "<" not in body
    assert json.loads(body) == {"text": hostile}
