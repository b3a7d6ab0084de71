"""POST /api/csp-report: browsers report what the Content-Security-Policy blocked; we log it."""

from __future__ import annotations

import json
import logging

from fastapi import APIRouter, Request, Response

from servicematch.terminal import safe_text

from .csp import REPORT_PATH

log = logging.getLogger("servicematch.csp")
# A report is a few hundred bytes; more is not a browser's report.
MAX_REPORT_BYTES = 16 * 1024
# What a report may name: enough to find the cause, never the page's query (it may hold personal data).
FIELDS = ("effective-directive", "violated-directive", "blocked-uri", "document-uri", "source-file",
          "line-number", "disposition")

router = APIRouter(tags=["ops"])


def _reports(body: object) -> list[dict]:
    """Both formats: report-uri's {"csp-report": {...}} and the Reporting API's [{"body": {...}}]."""
    if isinstance(body, dict) and isinstance(body.get("csp-report"), dict):
        return [body["csp-report"]]
    if isinstance(body, list):
        return [_kebab(item["body"]) for item in body
                if isinstance(item, dict) and item.get("type") == "csp-violation" and isinstance(item.get("body"), dict)]
    return []


def _kebab(body: dict) -> dict:
    # The Reporting API spells the fields in camelCase (blockedURL, effectiveDirective...).
    names = {"blockedURL": "blocked-uri", "documentURL": "document-uri", "effectiveDirective": "effective-directive",
             "sourceFile": "source-file", "lineNumber": "line-number", "disposition": "disposition"}
    return {names[key]: value for key, value in body.items() if key in names}


def _without_query(value: object) -> str:
    text = str(value)
    return text.split("?", 1)[0].split("#", 1)[0]


@router.post(REPORT_PATH, status_code=204, include_in_schema=False)
async def csp_report(request: Request) -> Response:
    """Log each violation as one line; anything unreadable is dropped quietly (browsers do not retry)."""
    body = await request.body()
    if len(body) > MAX_REPORT_BYTES:
        return Response(status_code=413)
    try:
        reports = _reports(json.loads(body))
    except (ValueError, UnicodeDecodeError):
        reports = []
    for report in reports:
        details = " ".join(f"{name}={safe_text(_without_query(report[name]))[:300]}"
                           for name in FIELDS if report.get(name) not in (None, ""))
        log.warning("CSP violation: %s", details)
    return Response(status_code=204)
