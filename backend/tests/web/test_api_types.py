"""The browser's API types (frontend/src/lib/api-schema.ts) are generated from the current schema."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
GENERATOR = ROOT / "frontend" / "tools" / "openapi-types" / "node_modules" / ".bin" / "openapi-typescript"
COMMITTED = ROOT / "frontend" / "src" / "lib" / "api-schema.ts"


@pytest.mark.skipif(not GENERATOR.is_file() or shutil.which("node") is None,
                    reason="openapi-typescript is not installed (make install-frontend installs it)")
def test_the_committed_api_types_match_the_schema(tmp_path):
    schema = tmp_path / "openapi.json"
    schema.write_text(subprocess.run(
        [sys.executable, "-m", "servicematch.api_schema"], check=True, capture_output=True, text=True, cwd=ROOT,
    ).stdout)
    generated = tmp_path / "api-schema.ts"
    subprocess.run([str(GENERATOR), str(schema), "-o", str(generated), "--silent"], check=True, cwd=ROOT)
    assert generated.read_text() == COMMITTED.read_text(), "run `make api-types` and commit frontend/src/lib/api-schema.ts"


def test_the_catalogue_answers_are_described(client):
    schema = client.get("/openapi.json").json()
    answer = schema["paths"]["/api/catalog"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer["$ref"] == "#/components/schemas/CatalogAnswer"
    detail = schema["components"]["schemas"]["ServiceDetail"]
    assert "tcpaText" in detail["required"]
    # The description matches what the endpoint answers.
    catalog = client.get("/api/catalog").json()
    assert set(catalog) == set(schema["components"]["schemas"]["CatalogAnswer"]["properties"])
    assert set(catalog["config"]) == set(schema["components"]["schemas"]["PublicConfig"]["properties"])
    service = client.get("/api/services/roofing").json()
    assert set(service) == set(detail["properties"])
    assert json.dumps(service)  # serializable as described
