"""Operator commands: `suppression import|lists|remove` (docs/quality.md, "Suppression lists").
An import or a removal is on the audit log, as the console's are, done by "cli" from no address."""

from __future__ import annotations

from collections.abc import Callable

import click
from sqlalchemy.orm import Session

from servicematch.console import audit
from servicematch.console.suppression import SUPPRESSION_IMPORT, SUPPRESSION_REMOVE
from servicematch.db.session import make_engine
from servicematch.errors import ServiceMatchError
from servicematch.quality.suppression import (
    ALGORITHMS,
    KINDS,
    find_buyer_id,
    find_list,
    list_views,
    remove_list,
)
from servicematch.quality.suppression_import import ImportRequest, ImportResult, import_list
from servicematch.settings import get_settings
from servicematch.terminal import SafeClickException, safe_text


@click.group()
def suppression() -> None:
    """Suppression lists: phones and e-mails no buyer is sold, or one buyer is not pinged with."""


# Who the audit log says made a change from the command line.
CLI = "cli"
# Seconds between progress lines: a big file says where it is without filling the screen.
PROGRESS_EVERY = 5.0


def _progress() -> Callable[[ImportResult], None]:
    shown = [0.0]

    def show(result: ImportResult) -> None:
        if result.seconds - shown[0] < PROGRESS_EVERY:
            return
        shown[0] = result.seconds
        rate = result.lines / result.seconds if result.seconds else 0
        click.echo(f"  {result.lines:,} lines read ({rate:,.0f} a second), {result.valid:,} valid, {result.bad:,} bad; "
                   f"{result.added:,} entries added so far", err=True)

    return show


def _report(result: ImportResult) -> list[str]:
    whose = "new" if result.created else "existing"
    rate = result.lines / result.seconds if result.seconds else 0
    lines = [f"list {result.list_name} ({result.kind}, {whose}): {result.added:,} entries added",
             (f"  {result.lines:,} lines: {result.valid:,} valid ({result.unchanged:,} on the list already or "
             f"repeated), {result.bad:,} bad, {result.blank:,} blank")]
    if result.bad:
        more = " ..." if result.bad > len(result.bad_lines) else ""
        lines.append(f"  bad lines: {', '.join(map(str, result.bad_lines))}{more}")
    if result.removed:
        lines.append(f"  replaced: {result.removed:,} entries removed first")
    lines.append(f"  {result.seconds:.1f} s ({rate:,.0f} lines/s)")
    return lines


@suppression.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--list", "name", required=True, help="The list's name (made when new): litigators, dnc-internal...")
@click.option("--buyer", help="A buyer's name or id: the list is that buyer's own "
                             "(only that buyer is not pinged for a lead on it).")
@click.option("--hashed", type=click.Choice(ALGORITHMS),
              help="The file holds digests, one per line; without it, plain phones or e-mails.")
@click.option("--kind", type=click.Choice(KINDS), help="phone or email; needed for a new list of digests.")
@click.option("--description", help="What the list is for (a new list's, or a new one for the list).")
@click.option("--replace", is_flag=True, help="Remove the list's entries first: the file becomes the list.")
def import_file(file: str, name: str, buyer: str | None, hashed: str | None, kind: str | None,
                description: str | None, replace: bool) -> None:
    """Add FILE's phones, e-mails or digests (one per line; - reads standard input) to a list.
    Bad lines are counted and skipped; entries already on the list are skipped too."""
    settings = get_settings()
    engine = make_engine(settings.database_url)
    try:
        with engine.connect() as connection, click.open_file(file, encoding="utf-8", errors="replace") as lines:
            buyer_id = find_buyer_id(Session(bind=connection), buyer) if buyer else None
            request = ImportRequest(list_name=name, hashed=hashed, kind=kind, buyer_id=buyer_id,
                                    description=description, replace=replace, created_by="cli")
            # SQLite has one writer: commit each batch rather than hold its lock for the whole file.
            result = import_list(connection, lines, request, commit_each_batch=settings.is_sqlite,
                                 progress=_progress())
            session = Session(bind=connection)
            audit.record(session, action=SUPPRESSION_IMPORT, operator=None, operator_email=CLI, ip="",
                         target=str(result.list_id),
                         detail={"name": result.list_name, "kind": result.kind, "buyerId": buyer_id, "hashed": hashed,
                                 "created": result.created, "replace": replace, "lines": result.lines,
                                 "added": result.added, "bad": result.bad, "removed": result.removed})
            session.flush()
            connection.commit()
    except ServiceMatchError as exc:
        raise SafeClickException(exc.error) from exc
    except OSError as exc:
        raise SafeClickException(f"cannot read {file}: {exc.strerror or exc}") from exc
    finally:
        engine.dispose()
    for line in _report(result):
        click.echo(safe_text(line))


@suppression.command("lists")
def lists() -> None:
    """Every list: name, kind, whose (global or a buyer's), entries, when made and by whom."""
    engine = make_engine(get_settings().database_url)
    try:
        with Session(engine) as session:
            views = list_views(session)
    finally:
        engine.dispose()
    if not views:
        click.echo("no suppression lists")
        return
    click.echo(f"{'name':<24} {'kind':<6} {'buyer':<24} {'entries':>12}  created")
    for view in views:
        whose = view.buyer_name or view.buyer_id or "(global)"
        click.echo(safe_text(f"{view.name:<24} {view.kind:<6} {whose[:24]:<24} {view.entry_count:>12,}  "
                             f"{view.created_at:%Y-%m-%d %H:%M} by {view.created_by}"))


@suppression.command("remove")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask first.")
def remove(name: str, yes: bool) -> None:
    """Remove the list NAME and every entry on it."""
    engine = make_engine(get_settings().database_url)
    try:
        with Session(engine) as session:
            found = find_list(session, name)
            if not yes:
                click.confirm(f"Remove {found.name} and its {found.entry_count:,} entries?", abort=True)
            list_id, list_name = found.id, found.name
            removed = remove_list(session, found)
            audit.record(session, action=SUPPRESSION_REMOVE, operator=None, operator_email=CLI, ip="",
                         target=str(list_id), detail={"name": list_name, "entries": removed})
            session.commit()
    except ServiceMatchError as exc:
        raise SafeClickException(exc.error) from exc
    finally:
        engine.dispose()
    click.echo(safe_text(f"removed {list_name} ({removed:,} entries)"))
