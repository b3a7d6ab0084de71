"""Send one message: to the SMTP server from settings, or into the local mailbox when none is set."""

from __future__ import annotations

import smtplib
import socket
import threading
import time
from email.message import EmailMessage
from email.utils import formatdate

from servicematch.delivery.outcome import Outcome, Send, SendResult
from servicematch.mail.mailbox import LocalMailbox
from servicematch.settings import Settings


def new_message(*, settings: Settings, to: str, subject: str, text: str, message_id_key: str,
                headers: dict[str, str] | None = None) -> EmailMessage:
    """A plain-text message from the configured sender."""
    message = EmailMessage()
    message["From"] = settings.smtp_sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False, usegmt=True)
    # A stable Message-ID lets mail systems drop the copy a retried send may produce.
    message["Message-ID"] = f"<{message_id_key}@servicematch>"
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(text)
    return message


def message_send(*, settings: Settings, message: EmailMessage) -> Send:
    """send_message for a message built now and handed over later, within the seconds then left."""
    return lambda deadline: send_message(settings=settings, message=message, deadline=deadline)


def send_message(*, settings: Settings, message: EmailMessage, deadline: float | None = None) -> SendResult:
    """Hand one message over within `deadline` seconds in all (default: the delivery timeout).

    A 5xx refusal is permanent, anything else is worth retrying.
    """
    target = f"mailto:{message['To']}"
    started = time.perf_counter()
    deadline = settings.delivery_timeout_seconds if deadline is None else deadline
    if not settings.smtp_host:
        LocalMailbox(settings.mail_dir).keep(message)
        return SendResult(outcome=Outcome.DELIVERED, target=target, duration_ms=_elapsed_ms(started),
                          status_code=250)
    try:
        with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=deadline) as smtp, \
                _cut_at(smtp, deadline - (time.perf_counter() - started)):
            if settings.smtp_starttls:
                smtp.starttls()
            if settings.smtp_user:
                smtp.login(settings.smtp_user, settings.smtp_password)
            smtp.send_message(message)
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _ in exc.recipients.values()]
        outcome = Outcome.REJECTED if codes and all(code >= 500 for code in codes) else Outcome.RETRY
        return _failure(outcome, target, started, codes[0] if codes else None, str(exc))
    except smtplib.SMTPDataError as exc:
        # Refusing the message itself is the receiver's answer; a refused login or sender is our
        # configuration and is retried until someone fixes it.
        outcome = Outcome.REJECTED if exc.smtp_code >= 500 else Outcome.RETRY
        return _failure(outcome, target, started, exc.smtp_code, _text(exc.smtp_error))
    except smtplib.SMTPResponseException as exc:
        return _failure(Outcome.RETRY, target, started, exc.smtp_code, _text(exc.smtp_error))
    except (OSError, smtplib.SMTPException) as exc:
        return _failure(Outcome.RETRY, target, started, None, f"{type(exc).__name__}: {exc}")
    return SendResult(outcome=Outcome.DELIVERED, target=target, duration_ms=_elapsed_ms(started),
                      status_code=250)


class _cut_at:
    """Shut the connection down when the deadline passes: smtplib's timeout bounds each read only."""

    def __init__(self, smtp: smtplib.SMTP, seconds: float) -> None:
        self._timer = threading.Timer(max(seconds, 0.0), self._shut, args=(smtp,))
        self._timer.daemon = True

    @staticmethod
    def _shut(smtp: smtplib.SMTP) -> None:
        if smtp.sock is not None:
            try:
                smtp.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def __enter__(self) -> None:
        self._timer.start()

    def __exit__(self, *_exc) -> None:
        self._timer.cancel()


def _failure(outcome: str, target: str, started: float, code: int | None, error: str) -> SendResult:
    return SendResult(outcome=outcome, target=target, duration_ms=_elapsed_ms(started),
                      status_code=code, error=error[:500])


def _text(error: bytes | str) -> str:
    return error.decode(errors="replace") if isinstance(error, bytes) else str(error)


def _elapsed_ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
