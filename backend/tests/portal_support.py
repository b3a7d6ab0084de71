"""The mailbox the tests read (the offline default, written by a thread after the answer) and a
signed-in portal client."""

from __future__ import annotations

import re
import time
from email.message import EmailMessage
from pathlib import Path

from fastapi.testclient import TestClient

from servicematch.access.sessions import CSRF_HEADER
from servicematch.mail.mailbox import LocalMailbox

PASSWORD = "correct horse battery staple"
WAIT_SECONDS = 10


class Mailbox:
    def __init__(self, directory: Path) -> None:
        self.box = LocalMailbox(directory)

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in (s.read() for s in self.box.messages()) if str(m["To"]).lower() == address.lower()]

    def wait_for(self, address: str, count: int = 1) -> list[EmailMessage]:
        """The messages to `address` once there are `count` (mail to people not signed in goes
        out on a thread after the answer)."""
        deadline = time.monotonic() + WAIT_SECONDS
        while len(found := self.to(address)) < count:
            assert time.monotonic() < deadline, f"no message {count} to {address}"
            time.sleep(0.05)
        return found

    def token(self, address: str, page: str, count: int = 1) -> str:
        """The token of the link to /pro/<page> in the newest message to `address`."""
        text = body(self.wait_for(address, count)[-1])
        found = re.search(rf"https?://\S+/pro/{page}#([A-Za-z0-9_-]+)", text)
        assert found, text
        return found.group(1)


def body(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


class PortalClient:
    """A provider's browser: its own cookies, its CSRF token, its provider id."""

    def __init__(self, http: TestClient, provider_id: str) -> None:
        self.http, self.provider_id, self.csrf = http, provider_id, ""

    def choose_password(self, token: str, password: str, **extra):
        answer = self.http.post("/api/pro/password", json={"token": token, "password": password, **extra})
        if answer.status_code == 200:
            self.csrf = answer.json()["csrfToken"]
        return answer

    def sign_in(self, email: str, password: str, **extra):
        answer = self.http.post("/api/pro/session", json={"email": email, "password": password, **extra})
        if answer.status_code == 200:
            self.csrf = answer.json()["csrfToken"]
        return answer

    def get(self, path: str):
        return self.http.get(f"/api/pro{path}")

    def send(self, method: str, path: str, body: dict | None = None, *, csrf: bool = True):
        headers = {CSRF_HEADER: self.csrf} if csrf else {}
        return self.http.request(method, f"/api/pro{path}", json=body, headers=headers)

    @property
    def me(self) -> str:
        return f"/providers/{self.provider_id}"
