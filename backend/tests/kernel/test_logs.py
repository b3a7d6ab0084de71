"""Log lines: plain text by default, or one JSON object a line, each with the request id and lead
reference of the work it was written for."""

from __future__ import annotations

import json
import logging
import threading
from contextvars import copy_context

from log_capture import captured_lines, json_lines

from servicematch.kernel.logs import REQUEST_ID, about_lead, configure_logging, logging_config

log = logging.getLogger("servicematch.test")


def test_a_json_line_holds_time_level_logger_message_and_the_work_it_was_for():
    with captured_lines("json") as buffer:
        token = REQUEST_ID.set("req-1")
        try:
            with about_lead("7K3MQ9TX"):
                log.info("routed lead %s", "lead-1")
        finally:
            REQUEST_ID.reset(token)
    [line] = json_lines(buffer)
    assert set(line) == {"time", "level", "logger", "message", "request_id", "lead_reference"}
    assert (line["level"], line["logger"], line["message"]) == ("INFO", "servicematch.test", "routed lead lead-1")
    assert (line["request_id"], line["lead_reference"]) == ("req-1", "7K3M-Q9TX")
    assert line["time"].endswith("+00:00") and "T" in line["time"]


def test_outside_a_request_and_a_lead_a_json_line_has_neither_key():
    with captured_lines("json") as buffer:
        log.warning("nothing to do")
    [line] = json_lines(buffer)
    assert "request_id" not in line and "lead_reference" not in line


def test_extra_values_stay_out_of_json_lines_as_they_stay_out_of_text():
    with captured_lines("json") as buffer:
        log.info("stored", extra={"email": "maria.garcia@example.com", "color_message": "x"})
    [line] = json_lines(buffer)
    assert "email" not in line and "color_message" not in line


def test_an_exception_is_one_line_with_its_traceback():
    with captured_lines("json") as buffer:
        try:
            raise ValueError("broken")
        except ValueError:
            log.exception("round failed")
    lines = buffer.getvalue().splitlines()
    assert len(lines) == 1
    assert "ValueError: broken" in json.loads(lines[0])["exc_info"]


def test_text_is_the_default_and_names_the_work_at_the_end():
    assert logging_config("text")["formatters"]["lines"]["()"].__name__ == "TextLines"
    with captured_lines("text") as buffer:
        with about_lead("7K3MQ9TX"):
            log.info("sent")
        log.info("idle")
    sent, idle = buffer.getvalue().splitlines()
    assert sent.endswith("INFO servicematch.test: sent [lead_reference=7K3M-Q9TX]")
    assert idle.endswith("INFO servicematch.test: idle")


def test_the_request_id_follows_the_work_into_a_copied_context_only():
    with captured_lines("json") as buffer:
        token = REQUEST_ID.set("req-2")
        try:
            # What Starlette does for a sync route: the thread runs in a copy of the request's context.
            copied = threading.Thread(target=copy_context().run, args=(log.info, "in the pool"))
            bare = threading.Thread(target=log.info, args=("on a thread of its own",))
            for thread in (copied, bare):
                thread.start()
                thread.join()
        finally:
            REQUEST_ID.reset(token)
    pooled, own = json_lines(buffer)
    assert pooled["request_id"] == "req-2"
    assert "request_id" not in own


def test_libraries_that_log_urls_headers_or_rows_stay_at_warning_even_at_debug():
    with captured_lines("json", level=logging.DEBUG) as buffer:
        logging.getLogger("twilio.http_client").info("GET Request: https://lookups.twilio.com/v2/PhoneNumbers/+1512")
        logging.getLogger("httpx").info("HTTP Request: GET https://example.com/?email=maria.garcia@example.com")
        logging.getLogger("sqlalchemy.engine.Engine").debug("Row ('Maria',)")
        logging.getLogger("servicematch.test").debug("our own debug line")
    assert [line["message"] for line in json_lines(buffer)] == ["our own debug line"]


def test_uvicorns_lines_share_the_format():
    with captured_lines("json") as buffer:
        logging.getLogger("uvicorn.error").info("Application startup complete.")
    [line] = json_lines(buffer)
    assert (line["logger"], line["message"]) == ("uvicorn.error", "Application startup complete.")


def test_logging_set_up_already_is_left_as_it_is():
    root = logging.getLogger()
    marker = logging.NullHandler()
    root.addHandler(marker)
    try:
        before = root.handlers[:]
        assert configure_logging("json") is False
        assert root.handlers == before
    finally:
        root.removeHandler(marker)
