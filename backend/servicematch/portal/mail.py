"""The portal's e-mails: confirm an application's address, an invitation, a password link, a
sign-in link, a refusal. Sent now or after the answer by access/mailer.py; each link carries its
token after '#', never seen by a server.
"""

from __future__ import annotations

from servicematch.access import links, mailer
from servicematch.access.mailer import run_later, send_now
from servicematch.settings import Settings

__all__ = ["run_later", "send_now"]


def link(settings: Settings, page: str, token: str) -> str:
    return mailer.page_link(settings, f"/pro/{page}", token)


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
