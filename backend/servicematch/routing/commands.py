"""Operator commands: `buyers add|list|pause|resume`."""

from __future__ import annotations

import json

import click

from servicematch.db.session import make_engine, make_session_factory
from servicematch.errors import ServiceMatchError
from servicematch.routing import buyers as directory
from servicematch.routing.models import Buyer
from servicematch.settings import get_settings
from servicematch.terminal import SafeClickException, safe_text


def _session_factory():
    return make_session_factory(make_engine(get_settings().database_url))


def _split(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def _dollars(cents: int | None) -> str:
    return "-" if cents is None else f"${cents / 100:,.2f}"


@click.group()
def buyers() -> None:
    """Lead buyers: who bids for leads (ping URL) or buys them at a fixed price."""


@buyers.command("add")
@click.option("--name", required=True)
@click.option("--post-url", required=True, help="Where the full lead is POSTed when the buyer wins it.")
@click.option("--ping-url", help="Where the lead's facts (no personal data) are POSTed for a bid.")
@click.option("--price", help="Fixed price in dollars (a buyer without a ping URL bids it for every lead).")
@click.option("--services", help="Service slugs, comma-separated (hvac,roofing or legal/debt-relief); all when omitted.")
@click.option("--states", help="Two-letter states, comma-separated; all when omitted.")
@click.option("--zips", help="5-digit ZIPs, comma-separated; all when omitted.")
@click.option("--exclusive/--shared", default=False, help="Buys leads only it receives, or shares them (default).")
@click.option("--daily-cap", type=click.IntRange(min=0), help="Most leads a day (UTC).")
@click.option("--monthly-budget", help="Most dollars a calendar month.")
@click.option("--hours", help='When it buys, e.g. "Mon-Fri 08:00-18:00 America/New_York"; always when omitted.')
@click.option("--secret", help="Standard Webhooks signing secret (whsec_...); generated when omitted.")
def add_buyer(name, post_url, ping_url, price, services, states, zips, exclusive, daily_cap, monthly_budget,
              hours, secret) -> None:
    """Add a buyer; prints its id and its signing secret."""
    settings = get_settings()
    try:
        terms = directory.BuyerTerms(
            name=name, post_url=post_url, ping_url=ping_url, price_cents=directory.to_cents(price, field="price"),
            services=_split(services), states=_split(states), zips=_split(zips), exclusive=exclusive,
            daily_cap=daily_cap, monthly_budget_cents=directory.to_cents(monthly_budget, field="monthly_budget"),
            hours=hours, secret=secret)
        with _session_factory()() as session:
            buyer = directory.add_buyer(session, terms, allow_private=settings.private_webhooks_allowed)
            session.commit()
            click.echo(f"buyer {buyer.id}")
            click.echo(f"secret {buyer.secret}")
    except ServiceMatchError as exc:
        raise SafeClickException(exc.error) from exc


def _public(buyer: Buyer) -> dict:
    return {"id": buyer.id, "name": buyer.name, "active": buyer.active, "postUrl": buyer.post_url,
            "pingUrl": buyer.ping_url, "price": None if buyer.price_cents is None else buyer.price_cents / 100,
            "services": buyer.services, "states": buyer.states, "zips": buyer.zips,
            "exclusive": buyer.exclusive, "dailyCap": buyer.daily_cap,
            "monthlyBudget": None if buyer.monthly_budget_cents is None else buyer.monthly_budget_cents / 100,
            "hours": buyer.hours}


@buyers.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def list_buyers(as_json: bool) -> None:
    """Every buyer, active and paused (never their secrets)."""
    with _session_factory()() as session:
        found = [_public(buyer) for buyer in directory.list_buyers(session)]
    if as_json:
        click.echo(json.dumps(found, indent=2))
        return
    if not found:
        click.echo("no buyers yet: add one with `servicematch buyers add`")
    for buyer in found:
        how = "ping " + buyer["pingUrl"] if buyer["pingUrl"] else "fixed " + _dollars(round(buyer["price"] * 100))
        click.echo(safe_text(f"{buyer['id']}  {'active' if buyer['active'] else 'paused'}  "
                             f"{'exclusive' if buyer['exclusive'] else 'shared'}  {buyer['name']}  ({how})"))


def _set_active(buyer_id: str, active: bool) -> None:
    try:
        with _session_factory()() as session:
            buyer = directory.set_active(session, buyer_id, active)
            session.commit()
            click.echo(safe_text(f"buyer {buyer.id} ({buyer.name}) is {'active' if active else 'paused'}"))
    except ServiceMatchError as exc:
        raise SafeClickException(exc.error) from exc


@buyers.command("pause")
@click.argument("buyer_id")
def pause(buyer_id: str) -> None:
    """Stop pinging and selling to a buyer."""
    _set_active(buyer_id, False)


@buyers.command("resume")
@click.argument("buyer_id")
def resume(buyer_id: str) -> None:
    """Ping and sell to a paused buyer again."""
    _set_active(buyer_id, True)
