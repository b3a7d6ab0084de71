"""Send a provider's lead notification through the SMTP server from settings."""

from __future__ import annotations

from servicematch.mail.transport import new_message, send_message
from servicematch.outbound.outcome import SendResult
from servicematch.settings import Settings


def send_email(*, settings: Settings, to: str, subject: str, text: str, message_id_key: str,
               deadline: float | None = None) -> SendResult:
    """Hand one message to the SMTP server within `deadline` seconds in all (default: the timeout).

    A 5xx refusal is permanent, anything else is retried. Callers check that an SMTP host is set:
    without one, the mail sender would keep the message in the local mailbox instead.
    """
    message = new_message(settings=settings, to=to, subject=subject, text=text, message_id_key=message_id_key)
    return send_message(settings=settings, message=message, deadline=deadline)
