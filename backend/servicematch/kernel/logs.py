"""Logging for every process (`servicematch serve` and uvicorn's own lines, the worker child it
starts, `servicematch worker`): plain text by default, or one JSON object a line
(SERVICEMATCH_LOG_FORMAT=json). Each line carries the request id of the request it was written
for, and the reference of the lead it is about, where either applies.

Both come from context variables: the request-id middleware (inbound/request_id.py) sets the
first for each request, and code working on one lead sets the second with `about_lead`. A context
variable follows the work into the thread pool of sync routes (Starlette copies the context), so
every line written while a request is handled carries its id.

Lines never carry personal data: messages name leads by id or reference, and the libraries that
write request URLs, headers or SQL rows at INFO or DEBUG are held at WARNING (NOISY_LIBRARIES).
"""

from __future__ import annotations

import logging
import logging.config
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import IO, Any, Literal

from pythonjsonlogger.json import JsonFormatter

from servicematch.kernel.references import shown_reference

LogFormat = Literal["text", "json"]

# The request being answered (its X-Request-ID) and the lead being worked on (its reference, as
# people read it: 7K3M-Q9TX), for every line written meanwhile.
REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
LEAD_REFERENCE: ContextVar[str | None] = ContextVar("lead_reference", default=None)

# Libraries that would write personal data at INFO or DEBUG: httpx and Twilio's client log each
# request's URL (a Lookup URL holds the phone number), Twilio's its headers too, Stripe its
# requests and answers (customers' e-mails), SQLAlchemy its statements and result rows.
NOISY_LIBRARIES = ("httpx", "httpcore", "twilio", "stripe", "sqlalchemy", "urllib3", "multipart")
# uvicorn's loggers write through the root logger's handler, so they share the format; access
# lines stay off (`serve` runs uvicorn with access_log=False, and the level here keeps them off).
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


@contextmanager
def about_lead(reference: str | None) -> Iterator[None]:
    """Lines written inside name this lead (its stored reference, shown as people read it)."""
    token = LEAD_REFERENCE.set(shown_reference(reference) if reference else None)
    try:
        yield
    finally:
        LEAD_REFERENCE.reset(token)


class WorkContext(logging.Filter):
    """Adds the request id and the lead reference of the work under way to each record (None
    where none applies). On the handler, so records from every logger get them."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        record.lead_reference = LEAD_REFERENCE.get()
        return True


def _context(record: logging.LogRecord) -> dict[str, str]:
    found = {key: getattr(record, key, None) for key in ("request_id", "lead_reference")}
    return {key: value for key, value in found.items() if value}


class TextLines(logging.Formatter):
    """`2026-11-29 08:00:00,123 INFO servicematch.delivery: message [request_id=..., lead_reference=...]`."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        context = _context(record)
        if not context:
            return line
        return f"{line} [{', '.join(f'{key}={value}' for key, value in context.items())}]"


class JsonLines(JsonFormatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, request_id and
    lead_reference where they apply, and the traceback of an exception (exc_info).

    Only these keys: a record's `extra` values are left out, as the text format leaves them out,
    so what a line may hold is the same in both formats."""

    def add_fields(self, log_data: dict[str, Any], record: logging.LogRecord,
                   message_dict: dict[str, Any]) -> None:
        log_data["time"] = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        log_data["level"] = record.levelname
        log_data["logger"] = record.name
        log_data["message"] = record.message
        log_data.update(_context(record))
        for key in ("exc_info", "stack_info"):
            if message_dict.get(key):
                log_data[key] = message_dict[key]


def logging_config(log_format: LogFormat, *, level: int = logging.INFO, stream: IO[str] | None = None) -> dict:
    """The configuration for logging.config.dictConfig: what `configure_logging` applies, and what
    `serve` hands uvicorn, which applies it in each web process it starts."""
    formatter = JsonLines if log_format == "json" else TextLines
    handler: dict[str, Any] = {"class": "logging.StreamHandler", "formatter": "lines", "filters": ["work"]}
    handler["stream"] = stream if stream is not None else "ext://sys.stderr"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"work": {"()": WorkContext}},
        "formatters": {"lines": {"()": formatter}},
        "handlers": {"lines": handler},
        "root": {"level": level, "handlers": ["lines"]},
        "loggers": {
            **{name: {"level": level, "handlers": [], "propagate": True} for name in UVICORN_LOGGERS},
            "uvicorn.access": {"level": logging.WARNING, "handlers": [], "propagate": True},
            **{name: {"level": max(level, logging.WARNING)} for name in NOISY_LIBRARIES},
        },
    }


def configure_logging(log_format: LogFormat, *, level: int = logging.INFO, stream: IO[str] | None = None,
                      replace: bool = False) -> bool:
    """Send every process's log lines to stderr (or `stream`) in `log_format`; whether it did.

    Like logging.basicConfig, it leaves a logging set up already (root handlers in place: a test
    runner's, or an embedding program's) as it is, unless told to `replace` it."""
    if logging.getLogger().handlers and not replace:
        return False
    logging.config.dictConfig(logging_config(log_format, level=level, stream=stream))
    return True
