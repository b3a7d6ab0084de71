"""Helpers the provider portal's browser tests share: the server's mailbox and the links in it."""

from __future__ import annotations

import re
from pathlib import Path

from console_support import wait_until

from servicematch.mail.mailbox import LocalMailbox

PORTAL_PASSWORD = "provider password 0123 abc"


def mailed_token(mail_dir: Path, address: str, page: str, count: int = 1) -> str:
    """The token of the link to /pro/<page> in message number `count` to `address` (mail to people
    not signed in goes out on a thread after the answer: it is waited for)."""

    def messages():
        found = [m for m in (s.read() for s in LocalMailbox(mail_dir).messages())
                 if str(m["To"]).lower() == address.lower()]
        return found if len(found) >= count else None

    text = wait_until(messages, f"message {count} to {address}")[count - 1].get_body(
        preferencelist=("plain",)).get_content()
    found = re.search(rf"/pro/{page}#([A-Za-z0-9_-]+)", text)
    assert found, text
    return found.group(1)
