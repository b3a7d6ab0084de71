"""Logging set up in a test as a process sets it up (servicematch.kernel.logs), its lines written to
a buffer, and the test runner's own logging put back afterwards."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager

from servicematch.kernel.logs import NOISY_LIBRARIES, UVICORN_LOGGERS, LogFormat, configure_logging

TOUCHED = ("", *UVICORN_LOGGERS, "uvicorn.access", *NOISY_LIBRARIES)


@contextmanager
def captured_lines(log_format: LogFormat, *, level: int = logging.DEBUG) -> Iterator[io.StringIO]:
    """Every log line written meanwhile, formatted as `log_format`, in the buffer yielded."""
    saved = {name: _state(logging.getLogger(name)) for name in TOUCHED}
    buffer = io.StringIO()
    configure_logging(log_format, level=level, stream=buffer, replace=True)
    try:
        yield buffer
    finally:
        for name, (handlers, level_was, propagate, disabled) in saved.items():
            logger = logging.getLogger(name)
            for handler in logger.handlers[:]:
                logger.removeHandler(handler)
            for handler in handlers:
                logger.addHandler(handler)
            logger.setLevel(level_was)
            logger.propagate = propagate
            logger.disabled = disabled


def json_lines(buffer: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in buffer.getvalue().splitlines() if line.strip()]


def _state(logger: logging.Logger) -> tuple[list[logging.Handler], int, bool, bool]:
    return logger.handlers[:], logger.level, logger.propagate, logger.disabled
