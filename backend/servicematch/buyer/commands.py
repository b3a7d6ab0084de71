"""`servicematch buyers invite`: a person of a buyer, mailed a link to the buyer portal."""

from __future__ import annotations

import click

from servicematch.errors import ServiceMatchError
from servicematch.outbound.outcome import Outcome
from servicematch.settings import get_settings
from servicematch.terminal import SafeClickException, safe_text


@click.command("invite")
@click.option("--buyer", "buyer_name_or_id", required=True,
              help="The buyer: its id, or its exact name (see `servicematch buyers list`).")
@click.option("--email", required=True, help="The person's e-mail: where the invitation goes, and its sign-in name.")
def invite(buyer_name_or_id: str, email: str) -> None:
    """Invite a person of a buyer to the buyer portal: e-mailed a link (72 hours) to choose a password.
    A buyer may have several people; each e-mail address belongs to one person."""
    from servicematch.buyer.invitations import invite as invite_person
    from servicematch.db.session import make_engine, make_session_factory
    from servicematch.routing.buyers import find_buyer

    settings = get_settings()
    with make_session_factory(make_engine(settings.database_url))() as session:
        try:
            buyer = find_buyer(session, buyer_name_or_id)
            invited = invite_person(session, buyer, email, invited_by="cli")
        except ServiceMatchError as exc:
            raise SafeClickException(exc.error) from exc
        session.commit()
        buyer_id, buyer_name, address = buyer.id, buyer.name, invited.account.email
        sent = invited.send(settings)
    click.echo(safe_text(f"invited {address} to the buyer portal for buyer {buyer_id} ({buyer_name})"))
    if sent.outcome != Outcome.DELIVERED:
        raise SafeClickException(f"the invitation e-mail to {address} was not sent ({sent.error}); "
                                 "send it again from the console's Buyers page")
    where = "" if settings.smtp_host else " (kept in the local mailbox: `servicematch mail list`)"
    click.echo(safe_text(f"invitation e-mailed to {address}{where}; its link works for 72 hours"))
