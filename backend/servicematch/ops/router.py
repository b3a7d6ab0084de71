"""GET /api/health: the process answers and its database accepts a query."""

from __future__ import annotations

from fastapi import APIRouter

from servicematch.deps import EngineDep

router = APIRouter(prefix="/api", tags=["ops"])


@router.get("/health", summary="Liveness and database reachability")
def health(engine: EngineDep) -> dict[str, str]:
    with engine.connect() as connection:
        connection.exec_driver_sql("SELECT 1")
    return {"status": "ok"}
