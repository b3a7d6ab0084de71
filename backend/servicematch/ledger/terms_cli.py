"""The terms options of `buyers add|update` and `providers add|update`, and the providers' commands
that take them.

`providers add` lives in the delivery room, which knows nothing of the ledger: the command here is
the same command with the terms options added, and sets the provider's account in the transaction
that adds the provider (the CLI installs it in place of delivery's, servicematch/cli.py).
"""

from __future__ import annotations

import click
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.delivery import commands as delivery_commands
from servicematch.delivery.models import Provider
from servicematch.delivery.quality_minimum import parse_min_quality
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.ledger.models import AccountKind, LedgerAccount, Terms
from servicematch.ledger.terms import (
    DEFAULT_NET_DAYS,
    MAX_NET_DAYS,
    UNSET,
    TermsChange,
    change_terms,
    check_change,
    credit_limit_cents,
    describe,
    dollars,
    standing_of,
)
from servicematch.terminal import SafeClickException, safe_text


def terms_options(command: click.Command) -> click.Command:
    """Add --terms, --credit-limit and --net-days to a click command (they reach it as keywords)."""
    command.params.extend([
        click.Option(["--terms"], type=click.Choice(Terms.ALL),
                     help="prepaid: buys while its balance covers the price (a new account's default); "
                          "credit: buys up to its credit limit, invoiced monthly."),
        click.Option(["--credit-limit"], metavar="DOLLARS",
                     help="Credit terms: how far below zero the balance may go, in dollars; 'none' for no limit."),
        click.Option(["--net-days"], type=click.IntRange(0, MAX_NET_DAYS),
                     help=f"Days after issue an invoice is due ({DEFAULT_NET_DAYS} unless set)."),
    ])
    return command


def terms_change(terms: str | None, credit_limit: str | None, net_days: int | None) -> TermsChange:
    """The options as a change: only what was given (a bad credit limit is a clear error)."""
    try:
        limit = UNSET if credit_limit is None else credit_limit_cents(credit_limit, field="credit-limit")
    except ServiceMatchError as exc:
        raise SafeClickException(exc.error) from exc
    return TermsChange(terms=terms, credit_limit_cents=limit, net_days=net_days)


def account_line(account: LedgerAccount | None) -> str:
    """"terms: Prepaid  balance: $0.00  available: $0.00": what the CLI prints after a change."""
    standing = standing_of(account)
    available = "no limit" if standing.available_cents is None else dollars(standing.available_cents)
    held = f"  NOT RECEIVING LEADS ({standing.hold_reason})" if standing.hold_reason else ""
    return f"terms: {describe(standing)}  balance: {dollars(standing.balance_cents)}  available: {available}{held}"


def account_json(account: LedgerAccount | None) -> dict:
    standing = standing_of(account)
    return {"terms": standing.terms, "netDays": standing.net_days,
            "creditLimit": None if standing.credit_limit_cents is None else standing.credit_limit_cents / 100,
            "balance": standing.balance_cents / 100,
            "available": None if standing.available_cents is None else standing.available_cents / 100,
            "hold": standing.hold_reason}


# -- providers ---------------------------------------------------------------------------------

def _add_with_terms(terms: str | None, credit_limit: str | None, net_days: int | None, **options) -> None:
    money = terms_change(terms, credit_limit, net_days)
    try:
        check_change(money, None)
    except ServiceMatchError as exc:
        raise SafeClickException(exc.error) from exc

    def then(session: Session, provider: Provider) -> str:
        return account_line(change_terms(session, AccountKind.PROVIDER, provider.id, money, name=provider.name,
                                         new_owner=True))

    delivery_commands.add_provider_with(options, then=then)


add_provider = terms_options(click.Command(
    "add", callback=_add_with_terms, params=list(delivery_commands.add_provider.params),
    help="Add a provider, with how it pays (prepaid unless --terms credit)."))


@terms_options
@click.command("update")
@click.argument("name_or_id")
@click.option("--min-quality", metavar="SCORE",
              help="Least quality score (0-100) of a lead it is sent or offered; 'none' for any.")
def update_provider(name_or_id: str, terms: str | None, credit_limit: str | None, net_days: int | None,
                    min_quality: str | None) -> None:
    """Change how a provider pays, or its minimum quality score; only the options given change."""
    money = terms_change(terms, credit_limit, net_days)
    if money.empty and min_quality is None:
        raise SafeClickException("nothing to change: give --terms, --credit-limit, --net-days or --min-quality")
    with delivery_commands._session_factory()() as session:
        try:
            provider = find_provider(session, name_or_id)
            if min_quality is not None:
                provider.min_quality = parse_min_quality(min_quality)
            account = None if money.empty else change_terms(session, AccountKind.PROVIDER, provider.id, money,
                                                             name=provider.name)
        except ServiceMatchError as exc:
            raise SafeClickException(exc.error) from exc
        session.commit()
        score = "any score" if provider.min_quality is None else f"min score {provider.min_quality}"
        line = f"  {account_line(account)}" if account is not None else ""
        click.echo(safe_text(f"provider {provider.id} ({provider.name}){line}  {score}"))


def find_provider(session: Session, name_or_id: str) -> Provider:
    """The provider with this id, or else the one provider with exactly this name (any case), as
    `buyers` finds a buyer (routing/buyers.py find_buyer)."""
    wanted = (name_or_id or "").strip()
    provider = session.get(Provider, wanted) if 0 < len(wanted) <= 36 else None
    if provider is not None:
        return provider
    found = list(session.scalars(select(Provider).where(func.lower(Provider.name) == wanted.lower())
                                 .order_by(Provider.created_at, Provider.id)))
    if not found:
        raise NotFound(f"No provider is named {wanted!r} or has that id: see `servicematch providers list`.")
    if len(found) > 1:
        ids = ", ".join(provider.id for provider in found)
        raise ServiceMatchError(f"{len(found)} providers are named {wanted!r}: give one's id instead ({ids}).",
                                status_code=409)
    return found[0]
