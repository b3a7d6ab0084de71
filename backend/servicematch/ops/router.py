"""POST /api/bench/insert: parse the same JSON a lead sends, insert one row, answer 202.

Mounted only when SERVICEMATCH_BENCHMARK_ROUTES is true, so the throughput benchmark can
state how close the real submit endpoint comes to the cheapest possible write.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, FastAPI, Request
from fastapi.responses import JSONResponse

from .models import BenchmarkRow


def install_benchmark_routes(app: FastAPI) -> None:
    router = APIRouter(prefix="/api/bench", tags=["ops"], include_in_schema=False)

    @router.post("/insert", status_code=202)
    def bare_insert(request: Request, payload: Annotated[dict[str, Any], Body()]) -> JSONResponse:
        request_id = str(payload.get("requestId", ""))[:64]
        with request.app.state.session_factory() as session:
            session.add(BenchmarkRow(request_id=request_id))
            session.commit()
        return JSONResponse({"requestId": request_id}, status_code=202)

    app.include_router(router)
