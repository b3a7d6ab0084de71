"""`servicematch operators add|list|disable|reset-password|totp-enable|totp-disable`."""

from __future__ import annotations

import sys

import click

from servicematch.console import accounts
from servicematch.db.session import make_engine, make_session_factory
from servicematch.errors import ServiceMatchError
from servicematch.reporting.rollup import retry_counted_delivery
from servicematch.settings import get_settings
from servicematch.terminal import SafeClickException, safe_text


def _session():
    return make_session_factory(make_engine(get_settings().database_url))()


def _read_password(from_stdin: bool) -> str:
    """From a hidden prompt (typed twice), or the first line of standard input for scripts."""
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return click.prompt("Password", hide_input=True, confirmation_prompt=True)


def _fail(exc: ServiceMatchError) -> click.ClickException:
    return click.ClickException(exc.error)


@click.group()
def operators() -> None:
    """Console operators: who may sign in at /admin, and as what."""


@operators.command("add")
@click.option("--email", required=True, help="The operator's e-mail; it is their sign-in name.")
@click.option("--role", type=click.Choice(["admin", "analyst"]), required=True,
              help="admin: everything; analyst: dashboards and masked leads, no export, no changes.")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input, not a prompt.")
def add(email: str, role: str, password_stdin: bool) -> None:
    """Create an operator."""
    password = _read_password(password_stdin)
    with _session() as session:
        try:
            operator = accounts.add_operator(session, email=email, role=role, password=password)
        except ServiceMatchError as exc:
            raise _fail(exc) from exc
        session.commit()
        click.echo(f"added {operator.role} {operator.email}; sign in at /admin")


@operators.command("list")
def list_operators() -> None:
    """Every operator, active or not."""
    with _session() as session:
        rows = accounts.list_operators(session)
    for operator in rows:
        flags = ["active" if operator.active else "DISABLED"]
        if operator.totp_secret is not None:
            flags.append("totp")
        click.echo(f"{operator.email}  {operator.role}  {', '.join(flags)}  since {operator.created_at:%Y-%m-%d}")
    if not rows:
        click.echo("no operators yet: add one with `servicematch operators add --email ... --role admin`")


@operators.command("disable")
@click.argument("email")
def disable(email: str) -> None:
    """Refuse an operator's sign-ins from now on and end their open sessions."""
    with _session() as session:
        try:
            operator = accounts.disable_operator(session, email)
        except ServiceMatchError as exc:
            raise _fail(exc) from exc
        session.commit()
        click.echo(f"disabled {operator.email}; their sessions have ended")


@operators.command("reset-password")
@click.argument("email")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input, not a prompt.")
def reset_password(email: str, password_stdin: bool) -> None:
    """Set a new password; the operator's open sessions end."""
    password = _read_password(password_stdin)
    with _session() as session:
        try:
            operator = accounts.reset_password(session, email, password)
        except ServiceMatchError as exc:
            raise _fail(exc) from exc
        session.commit()
        click.echo(f"new password set for {operator.email}; their sessions have ended")


@operators.command("totp-enable")
@click.argument("email")
def totp_enable(email: str) -> None:
    """Require a TOTP code at an admin's sign-in; prints the URI for an authenticator app."""
    with _session() as session:
        try:
            uri = accounts.enable_totp(session, get_settings(), email)
        except ServiceMatchError as exc:
            raise _fail(exc) from exc
        session.commit()
    click.echo("Add this to the operator's authenticator app (or make a QR code of it):")
    click.echo(uri)


@operators.command("totp-disable")
@click.argument("email")
def totp_disable(email: str) -> None:
    """Stop asking an operator for a TOTP code (for a lost phone)."""
    with _session() as session:
        try:
            operator = accounts.disable_totp(session, email)
        except ServiceMatchError as exc:
            raise _fail(exc) from exc
        session.commit()
        click.echo(f"{operator.email} signs in with a password alone now")


@click.group()
def deliveries() -> None:
    """The delivery outbox."""


@deliveries.command("retry")
@click.argument("delivery_id")
def retry(delivery_id: str) -> None:
    """Send a failed or rejected delivery again, with a fresh retry window."""
    with _session() as session:
        try:
            retry_counted_delivery(session=session, delivery_id=delivery_id)
        except ServiceMatchError as exc:
            raise SafeClickException(exc.error) from exc
        session.commit()
    click.echo(f"delivery {safe_text(delivery_id)} is queued again; a running worker sends it within its poll interval")
