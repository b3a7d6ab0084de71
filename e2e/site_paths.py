"""Where the browser tests find the built site and leave their artifacts.

A module of its own, not the conftest: helpers import these paths, and `import conftest` would
find whichever test folder's conftest pytest loaded first.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "e2e" / "artifacts"
# The built site the server serves; SERVICEMATCH_STATIC_DIR points the tests at another build.
STATIC_DIR = Path(os.environ.get("SERVICEMATCH_STATIC_DIR", ROOT / "frontend" / "dist"))


def server_log(name: str) -> Path:
    """Where a server started for the tests writes its output: one file per pytest-xdist worker
    (PYTEST_XDIST_WORKER), as each worker starts servers of its own."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return ARTIFACTS / (f"{name}-{worker}.log" if worker else f"{name}.log")
