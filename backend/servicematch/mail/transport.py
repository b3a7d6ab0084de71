"""Send one message: to the SMTP server from settings, or into the local mailbox when none is set."""

from __future__ import annotations

import smtplib
import socket
import ssl
import threading
import time
from email.charset import QP, Charset
from email.header import Header
from email.message import Message
from email.mime.text import MIMEText
from email.policy import compat32
from email.utils import formataddr, formatdate, parseaddr

from servicematch.mail.mailbox import LocalMailbox
from servicematch.outbound.outcome import Outcome, Send, SendResult
from servicematch.settings import Settings

_BODY_CHARSET = Charset("utf-8")
_BODY_CHARSET.body_encoding = QP  # readable text on the wire, rather than base64
# A header is folded only past RFC 5322's hard limit: compat32 would otherwise move a long link
# (List-Unsubscribe) to a continuation line, which some clients read with a leading space.
_POLICY = compat32.clone(max_line_length=998)


def new_message(*, settings: Settings, to: str, subject: str, text: str, message_id_key: str,
                headers: dict[str, str] | None = None) -> Message:
    """A plain-text message from the configured sender.

    Built with the email package's classic (compat32) API: its default policy parses every header
    it is given, which made building a consent receipt cost more than sending it. The message is
    the same: UTF-8 text (quoted-printable unless ASCII), RFC 2047 words in any non-ASCII header.
    """
    message = MIMEText(text, "plain", _BODY_CHARSET if not text.isascii() else "us-ascii", policy=_POLICY)
    message["From"] = _address(settings.smtp_sender)
    message["To"] = _address(to)
    message["Subject"] = _text(subject)
    message["Date"] = formatdate(localtime=False, usegmt=True)
    # A stable Message-ID lets mail systems drop the copy a retried send may produce.
    message["Message-ID"] = f"<{message_id_key}@servicematch>"
    for name, value in (headers or {}).items():
        message[name] = _text(value)
    return message


def _text(value: str) -> str | Header:
    return value if value.isascii() else Header(value, "utf-8")


def _address(value: str) -> str:
    """"Name <address>" with a non-ASCII name encoded, and the address left as it is."""
    name, address = parseaddr(value)
    if not address:
        return value
    return formataddr((name, address), charset="utf-8") if name else address


def message_send(*, settings: Settings, message: Message) -> Send:
    """send_message for a message built now and handed over later, within the seconds then left."""
    return lambda deadline: send_message(settings=settings, message=message, deadline=deadline)


def send_message(*, settings: Settings, message: Message, deadline: float | None = None) -> SendResult:
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
                # Verified: without a context, STARTTLS would trust any certificate (anyone in between).
                smtp.starttls(context=ssl.create_default_context())
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
