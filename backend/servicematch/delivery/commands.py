"""Operator commands: `providers add|list|disable`, `leads show`."""

from __future__ import annotations

import json
from collections.abc import Callable

import click
from pydantic import ValidationError
from sqlalchemy.orm import Session

from servicematch.db.session import make_engine, make_session_factory
from servicematch.delivery import providers as directory
from servicematch.delivery.content import intake_payload_builder
from servicematch.delivery.history import lead_history, render_history
from servicematch.delivery.models import Provider
from servicematch.delivery.quality_minimum import parse_min_quality
from servicematch.delivery.schemas import ProviderCreate
from servicematch.errors import ServiceMatchError
from servicematch.outbound.signing import new_webhook_secret
from servicematch.settings import get_settings
from servicematch.terminal import SafeClickException, safe_text


def _session_factory():
    return make_session_factory(make_engine(get_settings().database_url))


def _split(values: tuple[str, ...]) -> list[str]:
    """Accept both repeated options and comma-separated lists."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


@click.group()
def providers() -> None:
    """The provider directory."""


@providers.command("add")
@click.option("--name", required=True)
@click.option("--email", "contact_email", required=True, help="Contact e-mail; leads are mailed here.")
@click.option("--service", "services", multiple=True, required=True,
              help="Service slug (hvac) or vertical/slug (legal/debt-relief); repeat or comma-separate.")
@click.option("--state", "states", multiple=True, help="Two-letter state code; repeat or comma-separate.")
@click.option("--zip", "zips", multiple=True, help="5-digit ZIP code; repeat or comma-separate.")
@click.option("--radius", "radius_miles", type=float, help="Miles around each ZIP code.")
@click.option("--daily-cap", type=int, help="Most leads a day (UTC); no cap when omitted.")
@click.option("--webhook-url", help="Where a signed JSON copy of each lead is POSTed.")
@click.option("--webhook-secret", help="Signs the webhook (whsec_..., or a secret of your own); share it "
              "with the provider. Generated when a webhook URL is given without one.")
@click.option("--min-quality", metavar="SCORE",
              help="Least quality score (0-100) of a lead it is sent or offered; any when omitted.")
def add_provider(**options) -> None:
    """Add a provider."""
    add_provider_with(options)


def add_provider_with(options: dict, *, then: Callable[[Session, Provider], str] | None = None) -> None:
    """`providers add` with these options; `then` runs in its transaction once the provider is in
    (the ledger's terms options set its account there: servicematch/ledger/terms_cli.py), and what
    it answers is printed after the provider's id."""
    from servicematch.catalog.loader import load_catalog

    try:
        data = ProviderCreate(
            name=options["name"], contact_email=options["contact_email"], services=_split(options["services"]),
            states=_split(options["states"]), zips=_split(options["zips"]), radius_miles=options["radius_miles"],
            daily_cap=options["daily_cap"], webhook_url=options["webhook_url"],
            webhook_secret=options["webhook_secret"],
        )
    except ValidationError as exc:
        raise SafeClickException("; ".join(e["msg"] for e in exc.errors())) from exc
    try:
        min_quality = parse_min_quality(options.get("min_quality"))
    except ServiceMatchError as exc:
        raise SafeClickException(exc.error) from exc
    generated = new_webhook_secret() if data.webhook_url and not data.webhook_secret else None
    if generated:
        data = data.model_copy(update={"webhook_secret": generated})
    with _session_factory()() as session:
        try:
            provider = directory.add_provider(session=session, data=data,
                                              catalog=load_catalog(get_settings().catalog_dir))
            provider.min_quality = min_quality
            more = None
            if then is not None:
                session.flush()
                more = then(session, provider)
        except ServiceMatchError as exc:
            raise SafeClickException(f"{exc.error} {exc.fields}") from exc
        session.commit()
        click.echo(safe_text(f"added provider {provider.id} ({provider.name})"))
        if more:
            click.echo(safe_text(more))
        if generated:
            click.echo(f"webhook signing secret (share it with the provider): {generated}")


@providers.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def list_providers(as_json: bool) -> None:
    """Every provider, active or not."""
    with _session_factory()() as session:
        found = directory.list_providers(session=session)
        rows = [directory.provider_public(p) for p in found]
        minimums = {p.id: p.min_quality for p in found}
    if as_json:
        click.echo(json.dumps([{**row.model_dump(mode="json"), "min_quality": minimums[row.id]} for row in rows],
                              indent=2))
        return
    for row in rows:
        area = ", ".join(row.states + row.zips) + (f" (+{row.radius_miles:g} mi)" if row.radius_miles else "")
        channels = "webhook+email" if row.webhook_url else "email"
        if row.webhook_paused_until:
            channels += (f"  webhook PAUSED until {row.webhook_paused_until:%Y-%m-%d %H:%M:%S} UTC after "
                         f"{row.webhook_failures} failures ({row.webhook_last_error})")
        portal = ("  review mode (portal)" if row.mode == "review" else "") + ("  verified" if row.verified_at else "")
        if minimums[row.id] is not None:
            portal += f"  min score {minimums[row.id]}"
        click.echo(safe_text(
            f"{row.id}  {'active ' if row.active else 'DISABLED'}  {row.name} <{row.contact_email}>  "
            f"services: {', '.join(row.services)}  area: {area}  cap: {row.daily_cap or '-'}  via {channels}{portal}"))
    if not rows:
        click.echo("no providers yet: add one with `servicematch providers add`")


@providers.command("disable")
@click.argument("provider_id")
def disable_provider(provider_id: str) -> None:
    """Stop matching a provider (deliveries already queued still go out)."""
    with _session_factory()() as session:
        try:
            provider = directory.disable_provider(session=session, provider_id=provider_id)
        except ServiceMatchError as exc:
            raise SafeClickException(exc.error) from exc
        session.commit()
        click.echo(safe_text(f"disabled provider {provider.id} ({provider.name})"))


@click.group()
def leads() -> None:
    """Stored leads."""


@leads.command("show")
@click.argument("request_id", metavar="REFERENCE_OR_REQUEST_ID")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def show(request_id: str, as_json: bool) -> None:
    """A lead's flags, deliveries and every attempt (personal data masked), by the reference the
    consumer quotes (7K3M-Q9TX, any case, dash or not) or its requestId."""
    with _session_factory()() as session:
        try:
            history = lead_history(session=session, request_id=request_id, settings=get_settings(),
                                   payload_builder=intake_payload_builder)
        except ServiceMatchError as exc:
            raise SafeClickException(exc.error) from exc
    click.echo(json.dumps(history, indent=2) if as_json else render_history(history))
