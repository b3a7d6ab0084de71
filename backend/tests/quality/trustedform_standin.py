"""A local stand-in for TrustedForm's certificate API (v4): a real HTTP server answering
POST /{certificate id} with the match_lead, retain and insights operations, so no test calls TrustedForm.

    standin = TrustedFormStandIn().start()     # settings: trustedform_api_base=standin.base_url,
                                               # trustedform_api_key=API_KEY
    url = standin.issue(page_url=..., page_text=..., email=..., phone=...)   # what the browser script records

Unknown certificates answer 404; a wrong key or no `api-version: 4.0`, 401 / 400; `failing` ones a
500; `slow` ones answer after `slow_seconds`. Lead matching compares the e-mail (case-insensitive)
and the phone's digits; the page scan looks for each required text in the recorded page text,
ignoring case and runs of white space, as TrustedForm does. Retained certificates are in
`retained` (id -> the retain parameters); every request in `calls`.
"""

from __future__ import annotations

import base64
import json
import re
import secrets
import time
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer

from background_server import JsonHandler, QuietServer, serve_in_background

API_KEY = "standin-trustedform-key"
EXPIRES_AT = "2031-11-29T08:00:00.000Z"


@dataclass
class Certificate:
    page_url: str
    page_text: str
    email: str
    phone: str


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


@dataclass
class TrustedFormStandIn:
    certificates: dict[str, Certificate] = field(default_factory=dict)
    failing: set[str] = field(default_factory=set)
    slow: set[str] = field(default_factory=set)
    slow_seconds: float = 5.0
    retained: dict[str, dict] = field(default_factory=dict)
    calls: list[dict] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def issue(self, *, page_url: str, page_text: str, email: str, phone: str) -> str:
        """A new certificate as the browser script records one; its URL."""
        certificate_id = secrets.token_hex(20)
        self.certificates[certificate_id] = Certificate(page_url, page_text, email, phone)
        return f"{self.base_url}/{certificate_id}"

    def answer(self, certificate_id: str, request: dict) -> dict:
        """TrustedForm's answer for one certificate and request body."""
        certificate = self.certificates[certificate_id]
        answer: dict = {"outcome": "success", "reason": None}
        match = request.get("match_lead")
        if match is not None:
            email_match = (match.get("email") or "").lower() == certificate.email.lower()
            phone_match = re.sub(r"\D", "", match.get("phone") or "")[-10:] == certificate.phone[-10:]
            answer["match_lead"] = {**match, "result": {"email_match": email_match, "phone_match": phone_match,
                                                        "success": email_match or phone_match}}
            if not (email_match or phone_match):
                answer.update(outcome="failure", reason="no lead data matched")
        if "retain" in request:
            self.retained[certificate_id] = request["retain"]
            answer["retain"] = {**request["retain"], "results": {
                "expires_at": EXPIRES_AT, "masked_cert_url": f"{self.base_url}/masked-{certificate_id[:12]}",
                "previously_retained": False}}
        insights = request.get("insights")
        if insights is not None:
            properties = {"page_url": certificate.page_url,
                          "domain": certificate.page_url.split("/")[2] if "//" in certificate.page_url else ""}
            answer["insights"] = {"properties": {name: properties.get(name) for name in insights.get("properties", [])}}
            required = (insights.get("scans") or {}).get("required") or []
            if required:
                found = [text for text in required if _plain(text) in _plain(certificate.page_text)]
                missing = [text for text in required if text not in found]
                answer["insights"]["scans"] = {"result": {"success": not missing,
                                                          "required": {"found": found, "not_found": missing},
                                                          "forbidden": {"found": [], "not_found": []}}}
                if missing:
                    answer.update(outcome="failure", reason="required scan text not found")
        return answer

    def start(self) -> TrustedFormStandIn:
        standin = self

        class Handler(JsonHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                certificate_id = self.path.strip("/")
                standin.calls.append({"id": certificate_id, "body": body, "headers": dict(self.headers)})
                expected = "Basic " + base64.b64encode(f"API:{API_KEY}".encode()).decode()
                if self.headers.get("Authorization") != expected:
                    return self._answer(401, {"outcome": "error", "reason": "invalid credentials"})
                if self.headers.get("api-version") != "4.0":
                    return self._answer(400, {"outcome": "error", "reason": "unsupported api version"})
                if certificate_id in standin.slow:
                    time.sleep(standin.slow_seconds)
                if certificate_id in standin.failing:
                    return self._answer(500, {"outcome": "error", "reason": "internal error"})
                if certificate_id not in standin.certificates:
                    return self._answer(404, {"outcome": "error", "reason": "certificate not found"})
                self._answer(200, standin.answer(certificate_id, body))

        self._server = QuietServer(("127.0.0.1", 0), Handler)
        serve_in_background(self._server)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
