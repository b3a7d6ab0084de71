"""Row ids: random UUIDs as text, made by the application so a row's id is known before its INSERT."""

from __future__ import annotations

import uuid


def new_id() -> str:
    return str(uuid.uuid4())
