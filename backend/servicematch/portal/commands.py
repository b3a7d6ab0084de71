"""`servicematch providers invite`: a provider in review mode, mailed a link to the portal."""

from __future__ import annotations

import click

from servicematch.errors import ServiceMatchError
from servicematch.outbound.outcome import Outcome
from servicematch.settings import get_settings
from servicematch.terminal import SafeClickException, safe_text


def _split(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


@click.command("invite")
@click.option("--email", required=True, help="The provider's e-mail: where the invitation goes, and its sign-in name.")
@click.option("--name", required=True, help="The business name.")
@click.option("--services", required=True,
              help="Catalogue ids, comma-separated: vertical/slug (services/hvac) or a slug (roofing).")
@click.option("--zips", help="Service area as ZIP codes, comma-separated (or give --states).")
@click.option("--radius", "radius_miles", type=float, help="Miles around each ZIP code (with --zips).")
@click.option("--states", help="Service area as two-letter state codes, comma-separated (or give --zips).")
@click.option("--licence", "licence_number", help="Licence number (required for services that need one).")
@click.option("--licence-state", help="The state that issued the licence.")
def invite(email, name, services, zips, radius_miles, states, licence_number, licence_state) -> None:
    """Invite a provider: it is added in review mode and e-mailed a link (72 hours) to choose its portal password."""
    from servicematch.catalog.loader import load_catalog
    from servicematch.db.session import make_engine, make_session_factory
    from servicematch.portal.invitations import Invitee
    from servicematch.portal.invitations import invite as invite_provider

    if bool(zips) == bool(states):
        raise click.UsageError("give the service area as --zips (with an optional --radius) or as --states")
    if radius_miles is not None and not zips:
        raise click.UsageError("--radius needs --zips")
    settings = get_settings()
    invitee = Invitee(email=email, name=name, services=_split(services), zips=_split(zips), radius_miles=radius_miles,
                      states=_split(states), licence_number=licence_number, licence_state=licence_state)
    with make_session_factory(make_engine(settings.database_url))() as session:
        try:
            invited = invite_provider(session, load_catalog(settings.catalog_dir), invitee)
        except ServiceMatchError as exc:
            problems = "".join(f"; {field}: {message}" for field, message in exc.fields.items())
            raise SafeClickException(f"{exc.error}{problems}") from exc
        session.commit()
        provider_id, address = invited.provider.id, invited.account.email
        sent = invited.send(settings)
    click.echo(safe_text(f"invited provider {provider_id} ({name}) in review mode"))
    if sent.outcome != Outcome.DELIVERED:
        raise SafeClickException(f"the invitation e-mail to {address} was not sent ({sent.error}); "
                                 "send it again from the console's Providers page")
    where = "" if settings.smtp_host else " (kept in the local mailbox: `servicematch mail list`)"
    click.echo(safe_text(f"invitation e-mailed to {address}{where}; its link works for 72 hours"))
