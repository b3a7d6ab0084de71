"""The holds chore: pause accounts with an invoice past due beyond the grace days (and free those
that paid), then tell each new hold's people once, by e-mail.

The ledger knows accounts, not people: the worker hands in, for each kind of account, who its
people are (buyer/hold_notices.py, portal/hold_notices.py). A hold is claimed before its e-mail
goes (hold_notified_at set and committed), so two workers never both send it; should a send fail
in a way worth retrying, the claim is undone and the next run tries again, with the same
Message-ID, so a mail system drops a copy that did arrive.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from servicematch.ledger.holds import hold_words, pause_overdue
from servicematch.ledger.models import AccountKind, HoldReason, LedgerAccount
from servicematch.mail.transport import new_message, send_message
from servicematch.outbound.outcome import Outcome
from servicematch.settings import Settings

log = logging.getLogger("servicematch.ledger")

# How often the worker looks: a hold is told within about a minute.
HOLD_CHORE_SECONDS = 60.0
NOTICES_AT_ONCE = 200
# Owner ids -> the e-mail addresses of each owner's people.
People = Callable[[Session, list[str]], dict[str, list[str]]]
# The portal page that shows the account's balance, or its invoices when one is overdue.
PORTAL_PAGE = {(AccountKind.BUYER, HoldReason.FUNDS): "/buyer/billing",
               (AccountKind.BUYER, HoldReason.OVERDUE): "/buyer/invoices",
               (AccountKind.PROVIDER, HoldReason.FUNDS): "/pro/money",
               (AccountKind.PROVIDER, HoldReason.OVERDUE): "/pro/money"}


def check_holds(*, session_factory: sessionmaker[Session], settings: Settings, now: datetime,
                people: Mapping[str, People]) -> int:
    """Pause and free for overdue invoices, then send the notices due; how many accounts were told."""
    with session_factory() as session:
        pause_overdue(session, now, settings.overdue_grace_days)
        session.commit()
    return notify_holds(session_factory=session_factory, settings=settings, now=now, people=people)


def notify_holds(*, session_factory: sessionmaker[Session], settings: Settings, now: datetime,
                 people: Mapping[str, People]) -> int:
    with session_factory() as session:
        waiting = list(session.scalars(select(LedgerAccount.id).where(
            LedgerAccount.hold_reason.is_not(None), LedgerAccount.hold_notified_at.is_(None))
            .order_by(LedgerAccount.held_since).limit(NOTICES_AT_ONCE)))
        if not waiting:
            return 0
        table = LedgerAccount.__table__
        claimed = set(session.execute(update(table).where(table.c.id.in_(waiting), table.c.hold_notified_at.is_(None))
                                      .values(hold_notified_at=now).returning(table.c.id)).scalars())
        session.commit()
        accounts = list(session.scalars(select(LedgerAccount).where(LedgerAccount.id.in_(claimed))))
        addresses: dict[str, dict[str, list[str]]] = {}
        for kind in AccountKind.ALL:
            owners = [account.owner_id for account in accounts if account.kind == kind]
            addresses[kind] = people[kind](session, owners) if owners and kind in people else {}
        told = 0
        for account in accounts:
            words = hold_words(session, account, now, grace_days=settings.overdue_grace_days)
            recipients = addresses[account.kind].get(account.owner_id, [])
            if words is None or _send(settings, account, words, recipients):
                told += 1
                continue
            # Worth another try: the next run sends it again (to all, under the same Message-ID).
            session.execute(update(table).where(table.c.id == account.id).values(hold_notified_at=None))
            session.commit()
        return told


def notice(settings: Settings, account: LedgerAccount, words) -> tuple[str, str]:
    """The e-mail: subject and text. Names only the account's company, never a consumer."""
    brand = settings.brand_name
    since = account.held_since
    link = f"{settings.site_origin.rstrip('/')}{PORTAL_PAGE.get((account.kind, account.hold_reason), '/')}"
    return (f"You are not receiving leads from {brand}",
            f"Hello,\n\n{account.name or 'Your account'} is not receiving leads from {brand}"
            + (f" since {since:%B} {since.day}, {since.year}" if since else "")
            + f": {words.why}.\n\n{words.what}\n\nYour account: {link}\n\n"
            "We send this once for each pause; the portal shows it for as long as it lasts.\n")


def _send(settings: Settings, account: LedgerAccount, words, recipients: list[str]) -> bool:
    """Send the notice to each person; False when a send failed in a way worth retrying."""
    subject, text = notice(settings, account, words)
    held = f"{account.held_since:%Y%m%dT%H%M%S}" if account.held_since else "held"
    sent = True
    for address in recipients:
        # One Message-ID per hold and person: a retried send is recognised as the same message.
        key = hashlib.sha256(f"{account.id}|{held}|{address}".encode()).hexdigest()[:32]
        result = send_message(settings=settings, message=new_message(settings=settings, to=address, subject=subject,
                                                                    text=text, message_id_key=f"hold-{key}"))
        if result.outcome == Outcome.RETRY:
            # Not the error's text: an SMTP refusal quotes the address.
            log.warning("a hold notice for account %s could not be sent yet; tried again later", account.id)
            sent = False
    return sent
