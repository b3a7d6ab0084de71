"""The local mailbox: with no SMTP host, each message is kept as one private file to read later.

It is what lets `make run` work offline and tests read real messages. Files are written
owner-only (0600, in a 0700 directory) since receipts and codes name a person.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from pathlib import Path


@dataclass(frozen=True)
class StoredMessage:
    id: str
    path: Path

    def read(self) -> EmailMessage:
        return message_from_bytes(self.path.read_bytes(), policy=policy.default)  # type: ignore[return-value]

    def summary(self) -> dict[str, str]:
        message = self.read()
        return {"id": self.id, "date": str(message["Date"] or ""), "to": str(message["To"] or ""),
                "subject": str(message["Subject"] or "")}


class LocalMailbox:
    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def keep(self, message: Message) -> str:
        """Store the message; returns its id (sortable by arrival)."""
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        message_id = f"{datetime.now(UTC):%Y%m%dT%H%M%S%f}-{uuid.uuid4().hex[:8]}"
        path = self.directory / f"{message_id}.eml"
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            # The message's own policy (the header objects it holds are its kind), with SMTP's CRLF.
            handle.write(message.as_bytes(policy=message.policy.clone(linesep="\r\n")))
        return message_id

    def messages(self) -> list[StoredMessage]:
        if not self.directory.is_dir():
            return []
        return [StoredMessage(id=path.stem, path=path) for path in sorted(self.directory.glob("*.eml"))]

    def get(self, message_id: str) -> StoredMessage | None:
        # Only names this mailbox wrote: an id can never reach outside the directory.
        for stored in self.messages():
            if stored.id == message_id:
                return stored
        return None

    def forget_recipient(self, address: str) -> int:
        """Delete every message to `address` (an erasure request covers this mailbox too)."""
        wanted = address.strip().lower()
        removed = 0
        for stored in self.messages():
            if str(stored.read()["To"] or "").strip().lower() == wanted:
                stored.path.unlink(missing_ok=True)
                removed += 1
        return removed
