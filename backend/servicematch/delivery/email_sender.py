"""Send a provider's lead notification through the SMTP server from settings."""

from __future__ import annotations

import smtplib
import time
from email.message import EmailMessage

from servicematch.delivery.outcome import Outcome, SendResult
from servicematch.settings import Settings


def send_email(*, settings: Settings, to: str, subject: str, text: str, message_id_key: str) -> SendResult:
    """Hand one message to the SMTP server; a 5xx refusal is permanent, anything else is retried."""
    message = EmailMessage()
    message["From"] = settings.smtp_sender
    message["To"] = to
    message["Subject"] = subject
    # A stable Message-ID lets mail systems drop the copy a retried send may produce.
    message["Message-ID"] = f"<{message_id_key}@servicematch>"
    message.set_content(text)
    target = f"mailto:{to}"
    started = time.perf_counter()
    try:
        with smtplib.SMTP(settings.smtp_host, settings.smtp_port,
                          timeout=settings.delivery_timeout_seconds) as smtp:
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


def _failure(outcome: str, target: str, started: float, code: int | None, error: str) -> SendResult:
    return SendResult(outcome=outcome, target=target, duration_ms=_elapsed_ms(started),
                      status_code=code, error=error[:500])


def _text(error: bytes | str) -> str:
    return error.decode(errors="replace") if isinstance(error, bytes) else str(error)


def _elapsed_ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
