"""The velocity check: one phone, e-mail, street address or client address behind many leads in minutes."""

from __future__ import annotations

from .history import History
from .reasons import VELOCITY_ADDRESS, VELOCITY_EMAIL, VELOCITY_IP, VELOCITY_PHONE


def velocity_reasons(history: History, *, limit: int) -> list[str]:
    """A reason for each key that `limit` earlier leads in the window already share (across every
    service): with the default of 3, the fourth lead in ten minutes is the one flagged."""
    counts = {VELOCITY_PHONE: history.phone_leads, VELOCITY_EMAIL: history.email_leads,
              VELOCITY_ADDRESS: history.address_leads, VELOCITY_IP: history.ip_leads}
    return [reason for reason, earlier in counts.items() if earlier >= limit]
