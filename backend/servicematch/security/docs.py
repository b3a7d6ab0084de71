"""/docs without an inline script, so the page passes the same Content-Security-Policy as the site."""

from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

SWAGGER = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5"


def docs_router(*, docs_path: str, openapi_path: str, title: str) -> APIRouter:
    router = APIRouter(include_in_schema=False)
    init_path = f"{docs_path}/swagger-init.js"

    @router.get(docs_path)
    def docs_page() -> HTMLResponse:
        return HTMLResponse(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{title} - Swagger UI</title>"
            f"<link rel=\"stylesheet\" href=\"{SWAGGER}/swagger-ui.css\"></head>"
            "<body><div id=\"swagger-ui\"></div>"
            f"<script src=\"{SWAGGER}/swagger-ui-bundle.js\"></script>"
            f"<script src=\"{init_path}\"></script></body></html>"
        )

    @router.get(init_path)
    def swagger_init() -> Response:
        script = (f"window.ui = SwaggerUIBundle({{url: {json.dumps(openapi_path)}, dom_id: '#swagger-ui', "
                  "deepLinking: true, presets: [SwaggerUIBundle.presets.apis, "
                  "SwaggerUIBundle.SwaggerUIStandalonePreset], layout: 'BaseLayout'});\n")
        return Response(script, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    return router
