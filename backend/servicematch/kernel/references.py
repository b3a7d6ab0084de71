"""A lead's reference: the short code a consumer reads on the thank-you page and the receipt, and
quotes on the phone; operators find the lead by it (console search, `servicematch leads show`).

Eight characters of Crockford's base32 (40 random bits): digits and capital letters without I, L,
O and U, so nothing read aloud or copied by hand is ambiguous. Stored as the eight characters,
shown as two groups of four (`7K3M-Q9TX`). Read back, any case is accepted, dashes and spaces are
ignored, and the letters Crockford's decoding maps (I and L to 1, O to 0) are read as it says.
"""

from __future__ import annotations

import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8
_READ_AS = str.maketrans({"I": "1", "L": "1", "O": "0"})
_SEPARATORS = str.maketrans("", "", "- ")


def new_reference() -> str:
    """A fresh reference in its stored form (8 characters, no dash)."""
    value = secrets.randbits(5 * LENGTH)
    return "".join(ALPHABET[(value >> shift) & 31] for shift in range(5 * (LENGTH - 1), -1, -5))


def shown_reference(reference: str) -> str:
    """`7K3MQ9TX` as people see it: `7K3M-Q9TX`."""
    half = LENGTH // 2
    return f"{reference[:half]}-{reference[half:]}" if len(reference) == LENGTH else reference


def parse_reference(text: str) -> str | None:
    """The stored form of a reference as someone typed it, or None when it cannot be one."""
    candidate = text.strip().upper().translate(_SEPARATORS).translate(_READ_AS)
    if len(candidate) != LENGTH or any(char not in ALPHABET for char in candidate):
        return None
    return candidate
