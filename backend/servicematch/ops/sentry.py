"""Errors to Sentry (SERVICEMATCH_SENTRY_DSN; off while empty), with personal data taken out first.

Every process reports: each web process (create_app), the worker child `serve` starts and
`servicematch worker`. What is reported: unhandled exceptions (in requests, and in threads) and
every log line at ERROR, each tagged with the request id and lead reference of its work.

Personal data is kept out at the source where Sentry allows it (no user, cookies, query strings,
request bodies or local variables; only harmless headers), and `scrub_event` takes out whatever
else could carry it before anything leaves the process: the user, request bodies, cookies, query
strings, every header but a few harmless ones, frame variables, and any text that looks like an
e-mail address or a US phone number, wherever in the event it is (exception messages, log messages
and their arguments, breadcrumbs). Names and street addresses have no shape to find; they are kept
out by never being in messages, and by the bodies and variables that would carry them never being
sent.
"""

from __future__ import annotations

import re
from typing import Any

from servicematch.kernel.logs import LEAD_REFERENCE, REQUEST_ID
from servicematch.settings import Settings

# Request headers worth keeping: none of them says who the visitor is.
KEPT_HEADERS = frozenset({"accept", "accept-encoding", "content-length", "content-type", "host", "x-request-id"})
SCRUBBED = "[scrubbed]"
EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
# A US number as people write it (5125550142, 512-555-0142, (512) 555-0142, +1 512 555 0142): area
# code and exchange start with 2-9, and it stands alone, not inside an id, a longer number or a
# timestamp (1764403200.5).
PHONE = re.compile(r"(?<![\w.+])(?:\+?1[\s.-]?)?"  # an optional country code
                   r"(?:\([2-9]\d{2}\)\s?|[2-9]\d{2}[\s.-]?)[2-9]\d{2}[\s.-]?\d{4}(?!\w|\.\d)")
# Pydantic's errors quote the value they refused: `input_value='Maria'`.
INPUT_VALUE = re.compile(r"input_value=(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^,\s\]]+)")


def start_sentry(settings: Settings) -> bool:
    """Report this process's errors to Sentry while the DSN is set; whether it does."""
    if not settings.sentry_dsn:
        return False
    import sentry_sdk

    sentry_sdk.init(
        dsn=settings.sentry_dsn,
        environment=settings.environment,
        # send_default_pii=False as this SDK now spells it (it deprecates send_default_pii in favour
        # of data_collection), and stricter: every category that could hold personal data is off.
        data_collection={
            "user_info": False, "cookies": {"mode": "off"}, "url_query_params": {"mode": "off"},
            "http_headers": {"request": {"mode": "allowlist", "terms": sorted(KEPT_HEADERS)}},
            "http_bodies": [], "stack_frame_variables": False, "database_query_data": False, "queues": False,
            "graphql": {"document": False, "variables": False}, "gen_ai": {"inputs": False, "outputs": False},
        },
        max_request_body_size="never",
        before_send=scrub_event,
    )
    return True


def scrub_event(event: dict[str, Any], _hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """The event with personal data taken out, tagged with its request id and lead reference."""
    event.pop("user", None)
    request = event.get("request")
    if isinstance(request, dict):
        for key in ("data", "cookies", "env", "query_string"):
            request.pop(key, None)
        if isinstance(request.get("url"), str):
            request["url"] = request["url"].split("?", 1)[0]
        headers = request.get("headers")
        if isinstance(headers, dict):
            request["headers"] = {name: value for name, value in headers.items() if name.lower() in KEPT_HEADERS}
    for frame in _frames(event):
        frame.pop("vars", None)
    tags = event.setdefault("tags", {})
    for tag, variable in (("request_id", REQUEST_ID), ("lead_reference", LEAD_REFERENCE)):
        value = variable.get()
        if value and isinstance(tags, dict):
            tags.setdefault(tag, value)
    return _scrub_text(event)


def scrub_text(text: str) -> str:
    """E-mail addresses, phone numbers and quoted input values in `text` replaced by [scrubbed]."""
    return PHONE.sub(SCRUBBED, EMAIL.sub(SCRUBBED, INPUT_VALUE.sub(f"input_value={SCRUBBED}", text)))


def _scrub_text(value: Any) -> Any:
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, dict):
        return {key: _scrub_text(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub_text(item) for item in value]
    return value


def _frames(event: dict[str, Any]) -> list[dict[str, Any]]:
    """Every stack frame of the event: its exceptions' and its threads'."""
    frames = []
    for section in ("exception", "threads"):
        container = event.get(section)
        values = container.get("values", []) if isinstance(container, dict) else []
        for value in values if isinstance(values, list) else []:
            stacktrace = value.get("stacktrace") if isinstance(value, dict) else None
            if isinstance(stacktrace, dict) and isinstance(stacktrace.get("frames"), list):
                frames += [frame for frame in stacktrace["frames"] if isinstance(frame, dict)]
    return frames
