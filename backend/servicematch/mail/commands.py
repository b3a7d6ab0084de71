"""`servicematch mail list|show`: read the local mailbox the offline default writes to."""

from __future__ import annotations

import click

from servicematch.mail.mailbox import LocalMailbox
from servicematch.settings import get_settings


def _printable(text: str) -> str:
    # Message headers come partly from consumers: never let them drive the terminal.
    return "".join(ch if ch.isprintable() or ch in "\n\t" else repr(ch)[1:-1] for ch in text)


def _unix_lines(text: str) -> str:
    # Stored messages end their lines as SMTP does (\r\n): a terminal wants \n alone.
    return text.replace("\r\n", "\n").replace("\r", "\n")


@click.group()
def mail() -> None:
    """Messages kept in the local mailbox (SERVICEMATCH_MAIL_DIR) while no SMTP host is set."""


@mail.command("list")
def list_mail() -> None:
    """One line per message: id, date, recipient, subject (oldest first)."""
    messages = LocalMailbox(get_settings().mail_dir).messages()
    if not messages:
        click.echo("the mailbox is empty")
    for stored in messages:
        row = stored.summary()
        click.echo(_printable(f"{row['id']}  {row['date']}  {row['to']}  {row['subject']}"))


@mail.command("show")
@click.argument("message_id")
def show_mail(message_id: str) -> None:
    """Print one message, headers and text."""
    stored = LocalMailbox(get_settings().mail_dir).get(message_id)
    if stored is None:
        raise click.ClickException(f"no message with id {message_id} (see `servicematch mail list`)")
    message = stored.read()
    for name in ("Date", "From", "To", "Subject"):
        click.echo(_printable(_unix_lines(f"{name}: {message[name] or ''}")))
    click.echo("")
    body = message.get_body(preferencelist=("plain",))
    click.echo(_printable(_unix_lines(body.get_content() if body is not None else "")))
