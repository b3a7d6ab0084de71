"""The portals' e-mails to people signing in: sent now (an invitation an operator waits for) or
after the answer (a forgotten password, a sign-in link), and the links they carry.

Links carry their token after '#': browsers never send a fragment to a server, so it stays out of
logs and Referer headers; the page reads it and posts it. Nothing here logs a message's text.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from servicematch.kernel.ids import new_id
from servicematch.mail.transport import new_message, send_message
from servicematch.outbound.outcome import SendResult
from servicematch.settings import Settings

log = logging.getLogger("servicematch.access")

# Mail to people who are not signed in goes out after the answer: a known and an unknown address
# then answer alike, in time too, and a slow mail server does not hold up the page.
_mailer = ThreadPoolExecutor(max_workers=2, thread_name_prefix="portal-mail")


def page_link(settings: Settings, page_path: str, token: str) -> str:
    """The site's page at `page_path` (/pro/welcome, /buyer/reset) with the token in its fragment."""
    return f"{settings.site_origin.rstrip('/')}{page_path}#{token}"


def send_now(settings: Settings, *, to: str, subject: str, text: str, key_prefix: str = "portal") -> SendResult:
    """Send (or keep in the local mailbox) within the delivery timeout; the result says how it went."""
    return send_message(settings=settings, message=new_message(settings=settings, to=to, subject=subject, text=text,
                                                                message_id_key=f"{key_prefix}-{new_id()}"))


def run_later(job: Callable[[], object]) -> None:
    """Run `job` on the mail thread; a failure is logged without the message or its link."""
    def guarded() -> None:
        try:
            job()
        except Exception:
            log.exception("a portal e-mail could not be prepared or sent")

    _mailer.submit(guarded)
