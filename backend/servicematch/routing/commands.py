"""Operator commands: `buyers add|update|list|pause|resume`, with how each buyer pays (its ledger
account's terms: ledger/terms_cli.py) and its own rules (a minimum quality score, a duplicate rule:
routing/buyer_rules.py)."""

from __future__ import annotations

import json

import click

from servicematch.db.session import make_engine, make_session_factory
from servicematch.delivery.quality_minimum import parse_min_quality
from servicematch.errors import ServiceMatchError
from servicematch.ledger.models import AccountKind, LedgerAccount
from servicematch.ledger.postings import accounts_of
from servicematch.ledger.terms_cli import account_json, account_line, terms_change, terms_options
from servicematch.routing import buyer_rules as rules
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


def rule_options(command: click.Command) -> click.Command:
    """--min-quality and the duplicate rule's options, on `add` and `update` alike."""
    command.params.extend([
        click.Option(["--min-quality"], metavar="SCORE",
                     help="Least quality score (0-100) of a lead it is pinged for; 'none' for any."),
        click.Option(["--duplicate-days"], type=click.IntRange(0, rules.MAX_DUPLICATE_DAYS),
                     help="Its own duplicate rule: a lead of a person it was pinged for or bought within this many "
                          "days is not pinged (1-365); 0 for the site's rule."),
        click.Option(["--duplicate-match"], type=click.Choice(rules.DUPLICATE_MATCHES),
                     help="The same person by phone, e-mail or either (default phone)."),
        click.Option(["--duplicate-scope"], type=click.Choice(rules.DUPLICATE_SCOPES),
                     help="Within the same service, or across all services (default service)."),
        click.Option(["--global-duplicates"], is_flag=True, default=False,
                     help="Back to the site's duplicate rule (as --duplicate-days 0)."),
    ])
    return command


def _rules(current: rules.BuyerRules, min_quality: str | None, duplicate_days: int | None,
           duplicate_match: str | None, duplicate_scope: str | None, global_duplicates: bool) -> rules.BuyerRules:
    """The buyer's rules with the options given laid over them, checked; a clear error otherwise."""
    if global_duplicates and duplicate_days:
        raise ServiceMatchError("give --duplicate-days or --global-duplicates, not both")
    if min_quality is not None:
        current.min_quality = parse_min_quality(min_quality)
    if global_duplicates or duplicate_days == 0:
        current.duplicate_days = None
    elif duplicate_days is not None:
        current.duplicate_days = duplicate_days
    current.duplicate_match = duplicate_match or current.duplicate_match
    current.duplicate_scope = duplicate_scope or current.duplicate_scope
    if current.duplicate_days is None and (duplicate_match or duplicate_scope):
        raise ServiceMatchError("--duplicate-match and --duplicate-scope belong to a rule of its own: give "
                                "--duplicate-days too")
    return rules.check_rules(current)


def _rules_line(buyer: Buyer) -> str:
    own = rules.rules_of(buyer)
    score = "any score" if own.min_quality is None else f"min score {own.min_quality}"
    return f"{score}  duplicates: {rules.describe_rule(own)}"


@click.group()
def buyers() -> None:
    """Lead buyers: who bids for leads (ping URL) or buys them at a fixed price."""


@rule_options
@terms_options
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
              hours, secret, terms, credit_limit, net_days, min_quality, duplicate_days, duplicate_match,
              duplicate_scope, global_duplicates) -> None:
    """Add a buyer; prints its id, its signing secret, how it pays (prepaid unless --terms credit) and its
    rules (any score and the site's duplicate rule unless given)."""
    settings = get_settings()
    money = terms_change(terms, credit_limit, net_days)
    try:
        own = _rules(rules.BuyerRules(), min_quality, duplicate_days, duplicate_match, duplicate_scope,
                     global_duplicates)
        terms = directory.BuyerTerms(
            name=name, post_url=post_url, ping_url=ping_url, price_cents=directory.to_cents(price, field="price"),
            services=_split(services), states=_split(states), zips=_split(zips), exclusive=exclusive,
            daily_cap=daily_cap, monthly_budget_cents=directory.to_cents(monthly_budget, field="monthly_budget"),
            hours=hours, secret=secret)
        with _session_factory()() as session:
            buyer = directory.add_buyer(session, terms, allow_private=settings.private_webhooks_allowed, money=money)
            rules.apply_rules(buyer, own)
            session.commit()
            click.echo(f"buyer {buyer.id}")
            click.echo(f"secret {buyer.secret}")
            click.echo(account_line(_account(session, buyer.id)))
            click.echo(_rules_line(buyer))
    except ServiceMatchError as exc:
        raise SafeClickException(exc.error) from exc


def _account(session, buyer_id: str) -> LedgerAccount | None:
    return accounts_of(session, AccountKind.BUYER, [buyer_id]).get(buyer_id)


_KEEP = object()


def _given(value: str | None, parse=str, *, cleared=None):
    """An option of `update`: left out (kept), cleared ('none' or ''), or parsed."""
    if value is None:
        return _KEEP
    if value.strip().lower() in ("", "none"):
        return cleared
    return parse(value)


@rule_options
@terms_options
@buyers.command("update")
@click.argument("name_or_id")
@click.option("--name", help="A new name.")
@click.option("--post-url")
@click.option("--ping-url", help="'none' makes it a fixed-price buyer (give --price too).")
@click.option("--price", help="Fixed price in dollars; 'none' to drop it (a ping buyer).")
@click.option("--services", help="Service slugs, comma-separated; 'none' for all.")
@click.option("--states", help="Two-letter states, comma-separated; 'none' for all.")
@click.option("--zips", help="5-digit ZIPs, comma-separated; 'none' for all.")
@click.option("--exclusive/--shared", default=None)
@click.option("--daily-cap", help="Most leads a day (UTC); 'none' for no cap.")
@click.option("--monthly-budget", help="Most dollars a calendar month; 'none' for no budget.")
@click.option("--hours", help="When it buys; 'none' for always.")
@click.option("--secret", help="A new signing secret (whsec_...); the old one stops at once.")
def update_buyer(name_or_id, name, post_url, ping_url, price, services, states, zips, exclusive, daily_cap,
                 monthly_budget, hours, secret, terms, credit_limit, net_days, min_quality, duplicate_days,
                 duplicate_match, duplicate_scope, global_duplicates) -> None:
    """Change a buyer (by id, or by its name); only the options given change."""
    settings = get_settings()
    money = terms_change(terms, credit_limit, net_days)
    try:
        with _session_factory()() as session:
            buyer = directory.find_buyer(session, name_or_id)
            current = directory.terms_of(buyer)
            changes = {
                "name": _given(name), "post_url": _given(post_url), "ping_url": _given(ping_url),
                "price_cents": _given(price, lambda v: directory.to_cents(v, field="price")),
                "services": _given(services, _split, cleared=[]), "states": _given(states, _split, cleared=[]),
                "zips": _given(zips, _split, cleared=[]), "daily_cap": _given(daily_cap, lambda v: _whole(v, "daily-cap")),
                "monthly_budget_cents": _given(monthly_budget, lambda v: directory.to_cents(v, field="monthly_budget")),
                "hours": _given(hours)}
            for field, value in changes.items():
                if value is not _KEEP:
                    setattr(current, field, value)
            if exclusive is not None:
                current.exclusive = exclusive
            # A name or post URL cleared is refused by check_terms, by name, as an empty one.
            current.name, current.post_url = current.name or "", current.post_url or ""
            current.secret = secret or None
            own = _rules(rules.rules_of(buyer), min_quality, duplicate_days, duplicate_match, duplicate_scope,
                         global_duplicates)
            buyer = directory.update_buyer(session, buyer.id, current, allow_private=settings.private_webhooks_allowed,
                                           money=money)
            rules.apply_rules(buyer, own)
            session.commit()
            click.echo(safe_text(f"buyer {buyer.id} ({buyer.name}) updated"))
            click.echo(account_line(_account(session, buyer.id)))
            click.echo(_rules_line(buyer))
    except ServiceMatchError as exc:
        raise SafeClickException(exc.error) from exc


def _whole(value: str, field: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise ServiceMatchError(f"{field} must be a whole number, or none") from None
    if not 0 <= number <= 1_000_000:
        raise ServiceMatchError(f"{field} must be 0 to 1,000,000, or none")
    return number


def _public(buyer: Buyer, account: LedgerAccount | None) -> dict:
    return {"id": buyer.id, "name": buyer.name, "active": buyer.active, "postUrl": buyer.post_url,
            "pingUrl": buyer.ping_url, "price": None if buyer.price_cents is None else buyer.price_cents / 100,
            "services": buyer.services, "states": buyer.states, "zips": buyer.zips,
            "exclusive": buyer.exclusive, "dailyCap": buyer.daily_cap,
            "monthlyBudget": None if buyer.monthly_budget_cents is None else buyer.monthly_budget_cents / 100,
            "hours": buyer.hours, "minQuality": buyer.min_quality, "duplicateDays": buyer.duplicate_days,
            "duplicateMatch": buyer.duplicate_match, "duplicateScope": buyer.duplicate_scope, **account_json(account)}


@buyers.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def list_buyers(as_json: bool) -> None:
    """Every buyer, active and paused (never their secrets)."""
    with _session_factory()() as session:
        listed = directory.list_buyers(session)
        accounts = accounts_of(session, AccountKind.BUYER, [buyer.id for buyer in listed])
        found = [_public(buyer, accounts.get(buyer.id)) for buyer in listed]
        lines = {buyer.id: account_line(accounts.get(buyer.id)) for buyer in listed}
        rule_lines = {buyer.id: _rules_line(buyer) for buyer in listed}
    if as_json:
        click.echo(json.dumps(found, indent=2))
        return
    if not found:
        click.echo("no buyers yet: add one with `servicematch buyers add`")
    for buyer in found:
        how = "ping " + buyer["pingUrl"] if buyer["pingUrl"] else "fixed " + _dollars(round(buyer["price"] * 100))
        click.echo(safe_text(f"{buyer['id']}  {'active' if buyer['active'] else 'paused'}  "
                             f"{'exclusive' if buyer['exclusive'] else 'shared'}  {buyer['name']}  ({how})  "
                             f"{lines[buyer['id']]}  {rule_lines[buyer['id']]}"))


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
