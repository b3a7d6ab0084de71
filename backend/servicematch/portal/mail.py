"""The portal's e-mails: confirm an application's address, an invitation, a password link, a
sign-in link, a refusal.

Links carry their token after '#': browsers never send a fragment to a server, so it stays out of
logs and Referer headers; the page reads it and posts it. Nothing here logs a message's text.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from servicematch.access import links
from servicematch.kernel.ids import new_id
from servicematch.mail.transport import new_message, send_message
from servicematch.outbound.outcome import SendResult
from servicematch.settings import Settings

log = logging.getLogger("servicematch.portal")

# Mail to people who are not signed in goes out after the answer: a known and an unknown address
# then answer alike, in time too, and a slow mail server does not hold up the page.
_mailer = ThreadPoolExecutor(max_workers=2, thread_name_prefix="portal-mail")


def link(settings: Settings, page: str, token: str) -> str:
    return f"{settings.site_origin.rstrip('/')}/pro/{page}#{token}"


def send_now(settings: Settings, *, to: str, subject: str, text: str) -> SendResult:
    """Send (or keep in the local mailbox) within the delivery timeout; the result says how it went."""
    return send_message(settings=settings, message=new_message(settings=settings, to=to, subject=subject, text=text,
                                                                message_id_key=f"portal-{new_id()}"))


def run_later(job: Callable[[], object]) -> None:
    """Run `job` on the mail thread; a failure is logged without the message or its link."""
    def guarded() -> None:
        try:
            job()
        except Exception:
            log.exception("a portal e-mail could not be prepared or sent")

    _mailer.submit(guarded)


def confirm_application(settings: Settings, *, business_name: str, token: str) -> tuple[str, str]:
    brand = settings.brand_name
    return (f"Confirm your e-mail address for {brand}",
            (f"Thank you for applying to join {brand} as {business_name}.\n\n"
             f"Confirm this e-mail address to send your application for review:\n{link(settings, 'confirm-email', token)}\n\n"
             "The link works for 72 hours. If you did not apply, ignore this e-mail: nothing is sent for review "
             "without it.\n"))


def invitation(settings: Settings, *, name: str, token: str) -> tuple[str, str]:
    brand = settings.brand_name
    return (f"Your invitation to the {brand} provider portal",
            (f"Hello {name},\n\nYou are invited to the {brand} provider portal, where you set the services you "
             f"offer, where you work and when.\n\nChoose your password here:\n{link(settings, 'welcome', token)}\n\n"
             "The link works once, for 72 hours. Your e-mail address is your sign-in name.\n"))


def password_link(settings: Settings, *, token: str, first: bool) -> tuple[str, str]:
    brand = settings.brand_name
    what = "choose your password" if first else "choose a new password"
    return (f"Your {brand} portal password",
            (f"Someone asked to {what} for the {brand} provider portal with this e-mail address.\n\n"
             f"To {what}, open this link:\n{link(settings, 'reset', token)}\n\n"
             "The link works once, for 1 hour. If you did not ask, ignore this e-mail: your password stays as it is.\n"))


def signin_link(settings: Settings, *, token: str) -> tuple[str, str]:
    """A one-time sign-in link for an account locked by failed sign-ins (access/links.py)."""
    return links.message(settings.brand_name, place="provider portal", url=link(settings, "sign-in-link", token))


def refusal(settings: Settings, *, business_name: str, reason: str) -> tuple[str, str]:
    brand = settings.brand_name
    return (f"Your application to {brand}",
            (f"Thank you for applying to join {brand} as {business_name}. We cannot accept the application now, "
             f"for this reason:\n\n{reason}\n\nYou are welcome to apply again once this has changed.\n"))
