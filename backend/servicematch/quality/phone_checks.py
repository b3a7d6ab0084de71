"""The phone checks that need no network: a made-up number, and an area code from another state.

Intake has already refused anything that is not a valid US number by phonenumbers' metadata
(inbound/validation.py), so the number here is ten digits that could be dialled.
"""

from __future__ import annotations

from itertools import pairwise

from .area_codes import state_of_area_code
from .reasons import PHONE_AREA_STATE, PHONE_FAKE

# 555-0100 to 555-0199 are reserved for fiction in every area code.
FICTIONAL_EXCHANGE = "555"
FICTIONAL_LINES = "01"


def _is_run(digits: str) -> bool:
    """Each digit one more (or each one less) than the one before, 9 wrapping to 0: 1234567890."""
    steps = {(int(after) - int(before)) % 10 for before, after in pairwise(digits)}
    return steps in ({1}, {9})


def is_fake(digits: str) -> bool:
    """A number people type to get past a form: 555-01xx, the seven local digits one digit repeated
    (512-777-7777), or a run over all ten digits or the local seven (123-456-7890, 512-345-6789)."""
    local = digits[3:]
    if digits[3:6] == FICTIONAL_EXCHANGE and digits[6:8] == FICTIONAL_LINES:
        return True
    return len(set(local)) == 1 or _is_run(digits) or _is_run(local)


def phone_reasons(digits: str, lead_state: str | None) -> list[str]:
    """The offline reasons for a ten-digit US number given with a lead in `lead_state`."""
    if len(digits) != 10 or not digits.isdigit():
        return []  # intake stores no phone it could not read; nothing to judge
    reasons = [PHONE_FAKE] if is_fake(digits) else []
    served = state_of_area_code(digits[:3])
    # A mobile number keeps its area code when its owner moves: a small weight, never a refusal.
    if served and lead_state and served != lead_state:
        reasons.append(PHONE_AREA_STATE)
    return reasons
