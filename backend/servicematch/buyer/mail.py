"""The buyer portal's e-mails: an invitation, a password link, a sign-in link. Each link opens a
page of the portal (/buyer/welcome, /buyer/reset, /buyer/sign-in-link) with its token after '#',
which no server sees; sent by access/mailer.py, which never logs a message's text."""

from __future__ import annotations

from servicematch.access import links, mailer
from servicematch.outbound.outcome import SendResult
from servicematch.settings import Settings

# The pages the links open (frontend/src/buyer reads the token from the fragment and posts it).
WELCOME, RESET, SIGN_IN_LINK = "welcome", "reset", "sign-in-link"


def link(settings: Settings, page: str, token: str) -> str:
    return mailer.page_link(settings, f"/buyer/{page}", token)


def send_now(settings: Settings, *, to: str, subject: str, text: str) -> SendResult:
    return mailer.send_now(settings, to=to, subject=subject, text=text, key_prefix="buyer")


def invitation(settings: Settings, *, buyer_name: str, token: str) -> tuple[str, str]:
    brand = settings.brand_name
    return (f"Your invitation to the {brand} buyer portal",
            (f"Hello,\n\nYou are invited to the {brand} buyer portal for {buyer_name}: the leads you bought with "
             "their consent proof, returns, your caps, hours and bids, and API keys for your systems.\n\n"
             f"Choose your password here:\n{link(settings, WELCOME, token)}\n\n"
             "The link works once, for 72 hours. Your e-mail address is your sign-in name.\n"))


def password_link(settings: Settings, *, token: str, first: bool) -> tuple[str, str]:
    brand = settings.brand_name
    what = "choose your password" if first else "choose a new password"
    return (f"Your {brand} buyer portal password",
            (f"Someone asked to {what} for the {brand} buyer portal with this e-mail address.\n\n"
             f"To {what}, open this link:\n{link(settings, RESET, token)}\n\n"
             "The link works once, for 1 hour. If you did not ask, ignore this e-mail: your password stays "
             "as it is.\n"))


def signin_link(settings: Settings, *, token: str) -> tuple[str, str]:
    """A one-time sign-in link for an account locked by failed sign-ins (access/links.py)."""
    return links.message(settings.brand_name, place="buyer portal", url=link(settings, SIGN_IN_LINK, token))
