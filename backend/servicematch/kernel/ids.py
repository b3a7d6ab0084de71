"""Row ids: random UUIDs (version 4) as text, made by the application so a row's id is known before
its INSERT.

A lead's auction makes dozens (a ping id per buyer, a step per ping and bid, its posts and
deliveries), and `str(uuid.uuid4())` costs one `getrandom` call and a `UUID` object each. The
random bytes are the same as uuid4's (os.urandom), read 4 KB at a time per thread and formatted
directly. A forked child starts with none, so it never repeats its parent's ids.
"""

from __future__ import annotations

import os
import threading

_BYTES_AT_ONCE = 4096
_pools = threading.local()


def _forget_pools() -> None:
    global _pools
    _pools = threading.local()


os.register_at_fork(after_in_child=_forget_pools)


def new_id() -> str:
    pool = getattr(_pools, "bytes", None)
    at = getattr(_pools, "at", _BYTES_AT_ONCE)
    if pool is None or at >= _BYTES_AT_ONCE:
        pool, at = os.urandom(_BYTES_AT_ONCE), 0
        _pools.bytes = pool
    _pools.at = at + 16
    raw = bytearray(pool[at:at + 16])
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # the RFC 4122 variant
    text = raw.hex()
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"
