"""Text for a terminal: what a consumer or a receiver wrote must not drive the operator's screen."""

from __future__ import annotations

import unicodedata

import click

# Control characters (escape sequences, line breaks, backspace), format characters (right-to-left
# overrides that reorder what is shown) and line/paragraph separators.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def safe_text(value: object) -> str:
    """The value as one printable line: every unsafe character shown as its escape (\\x1b, \\n)."""
    text = str(value)
    if all(unicodedata.category(char) not in _UNSAFE_CATEGORIES for char in text):
        return text
    return "".join(_escaped(c) if unicodedata.category(c) in _UNSAFE_CATEGORIES else c for c in text)


class SafeClickException(click.ClickException):
    """A command's error whose message may quote stored or typed text."""

    def __init__(self, message: str) -> None:
        super().__init__(safe_text(message))
