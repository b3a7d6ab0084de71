"""A local stand-in for Twilio Lookup v2: a real HTTP server answering
GET /v2/PhoneNumbers/{+1number}?Fields=line_type_intelligence as Twilio does, so no test calls Twilio.

    standin = TwilioStandIn().start()      # settings: twilio_lookup_base=standin.base_url,
                                           # twilio_account_sid=ACCOUNT_SID, twilio_auth_token=AUTH_TOKEN
    standin.lines["+15125550123"] = line("nonFixedVoip", "Bandwidth/13 - Bandwidth.com - SVR")

A number not in `lines` is a valid mobile number of a major carrier; `invalid` numbers answer
valid: false; `failing` ones a 500; `slow` ones answer after `slow_seconds`. Wrong credentials get
Twilio's 401. Every request is kept in `calls` as (path, query, authorization header).
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

from background_server import JsonHandler, QuietServer, serve_in_background

ACCOUNT_SID = "AC00000000000000000000000000000000"
AUTH_TOKEN = "standin-auth-token"


def line(kind: str, carrier: str) -> dict:
    return {"type": kind, "carrier_name": carrier, "mobile_country_code": "310", "mobile_network_code": "120",
            "error_code": None}


@dataclass
class TwilioStandIn:
    lines: dict[str, dict] = field(default_factory=dict)
    invalid: set[str] = field(default_factory=set)
    failing: set[str] = field(default_factory=set)
    slow: set[str] = field(default_factory=set)
    slow_seconds: float = 3.0
    calls: list[tuple[str, dict, str]] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> TwilioStandIn:
        standin = self

        class Handler(JsonHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                standin.calls.append((parts.path, parse_qs(parts.query), self.headers.get("Authorization", "")))
                expected = "Basic " + base64.b64encode(f"{ACCOUNT_SID}:{AUTH_TOKEN}".encode()).decode()
                if self.headers.get("Authorization") != expected:
                    return self._answer(401, {"code": 20003, "message": "Authenticate", "status": 401})
                number = unquote(parts.path.removeprefix("/v2/PhoneNumbers/"))
                if number in standin.slow:
                    time.sleep(standin.slow_seconds)
                if number in standin.failing:
                    return self._answer(500, {"code": 20500, "message": "Internal Server Error", "status": 500})
                valid = number not in standin.invalid
                fields = parse_qs(parts.query).get("Fields", [""])[0]
                self._answer(200, {
                    "calling_country_code": "1", "country_code": "US" if valid else None, "phone_number": number,
                    "national_format": number, "valid": valid,
                    "validation_errors": [] if valid else ["NOT_A_NUMBER"],
                    "line_type_intelligence": (standin.lines.get(number, line("mobile", "T-Mobile USA, Inc."))
                                               if valid and "line_type_intelligence" in fields else None),
                    "url": f"https://lookups.twilio.com/v2/PhoneNumbers/{number}",
                })

        self._server = QuietServer(("127.0.0.1", 0), Handler)
        serve_in_background(self._server)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
