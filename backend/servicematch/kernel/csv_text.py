"""CSV a spreadsheet opens safely: one line at a time, a cell that would start a formula kept as text.

The console's lead export and the portal's monthly statement both write through `csv_line`.
"""

from __future__ import annotations

import csv
import io
import re

# A cell starting with one of these is a formula to a spreadsheet; quoting it keeps it text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A plain number (a negative amount of our own making) is no formula: it stays a number.
PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def csv_cell(value: object) -> str:
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_line(values: list[object]) -> str:
    """One CSV line (with its line end), each cell made safe."""
    buffer = io.StringIO()
    csv.writer(buffer).writerow([csv_cell(v) for v in values])
    return buffer.getvalue()


def dollars(cents: int) -> str:
    """Cents as dollars for a CSV cell: 1225 -> "12.25", -1225 -> "-12.25"."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"
