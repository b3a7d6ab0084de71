"""Operator commands: `keys status`, `keys rotate` and `backup` (docs/operations.md)."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import click
from sqlalchemy import Engine

from servicematch.access.devices import LIFETIME as DEVICE_LIFETIME
from servicematch.buyer.accounts import BUYER_ACCOUNTS
from servicematch.console.models import Operator
from servicematch.db.session import make_engine
from servicematch.kernel.crypto import DataCipher, cipher_for, data_keys, key_id_of, lookup_key_of
from servicematch.kernel.keys import listed
from servicematch.ops.backup import BackupRefused, backup
from servicematch.portal.accounts import PROVIDER_ACCOUNTS
from servicematch.privacy.codes import CODE_LIFETIME
from servicematch.privacy.key_rotation import (
    PRIVACY_COLUMNS,
    Batch,
    EncryptedColumn,
    Progress,
    check_lookup_keys,
    count_by_key,
    pending,
    rotate_column,
)
from servicematch.privacy.links import STOP_LINK_LIFETIME
from servicematch.settings import Settings, get_settings
from servicematch.terminal import SafeClickException

# Every column encrypted with the data key, and the name each value is bound to (prefix + row id):
# leads and privacy corrections, then the TOTP seeds of operators and of both portals' accounts.
ENCRYPTED_COLUMNS: tuple[EncryptedColumn, ...] = (
    *PRIVACY_COLUMNS,
    EncryptedColumn(Operator.__table__, "totp_secret", "operator-totp:"),  # console/accounts.py
    *(EncryptedColumn(accounts.table.__table__, column, f"{accounts.totp_context}:")
      for accounts in (PROVIDER_ACCOUNTS, BUYER_ACCOUNTS) for column in ("totp_secret", "totp_pending")),
)
OLD_KEYS = "SERVICEMATCH_DATA_KEYS_OLD"


@click.group()
def keys() -> None:
    """Data keys and secret keys: what each one still encrypts, and re-encrypting under the current one."""


def key_names(settings: Settings) -> dict[bytes, str]:
    """Each configured data key's id, with where it is configured: the current one first."""
    current = "SERVICEMATCH_DATA_KEY" if settings.data_key else f"the key file {settings.data_key_file}"
    names = {key_id_of(data_keys(settings)[0]): current}
    for place, key in enumerate(data_keys(settings)[1:], start=1):
        names.setdefault(key_id_of(key), f"{OLD_KEYS} entry {place}")
    return names


def named(key_id: bytes, names: dict[bytes, str]) -> str:
    return f"{key_id.hex()} ({names[key_id]})" if key_id in names else f"{key_id.hex()} (not configured)"


def old_key_verdicts(counts: Counter, settings: Settings) -> list[str]:
    """What each earlier key still does, and whether it can be dropped: only once no value made by it
    remains (and none written before key ids, which may be its)."""
    names, cipher = key_names(settings), cipher_for(settings)
    lookup_root = key_id_of(data_keys(settings)[-1])
    unkeyed = counts.get(None, 0)
    verdicts = [f"{_values(count)} under {key_id.hex()}, which is not configured, cannot be read: add that key "
                f"to {OLD_KEYS}" for key_id, count in counts.items() if key_id is not None and key_id not in names]
    for key_id in list(names)[1:]:
        if counts.get(key_id):
            verdicts.append(f"{named(key_id, names)} still encrypts {_values(counts[key_id])}: run "
                            "`servicematch keys rotate`")
        elif unkeyed:
            verdicts.append(f"{named(key_id, names)} may have made the {_values(unkeyed)} written before key ids: "
                            "run `servicematch keys rotate`")
        elif key_id == lookup_root:
            verdicts.append(f"{named(key_id, names)} encrypts nothing any more; keep it, last in {OLD_KEYS}: "
                            "it keys the lookup hashes")
        else:
            verdicts.append(f"{named(key_id, names)} encrypts nothing any more: it can be dropped from {OLD_KEYS}")
    if not verdicts:
        under = "no earlier data key is configured" if unkeyed == 0 else f"{_values(unkeyed)} written before key ids"
        verdicts.append(f"{under}; the current key is {cipher.key_id.hex()}")
    return verdicts


def _counts(engine: Engine) -> dict[str, Counter]:
    return {column.label: count_by_key(engine, column) for column in ENCRYPTED_COLUMNS}


def _sum(counts: dict[str, Counter]) -> Counter:
    summed: Counter = Counter()
    for count in counts.values():
        summed.update(count)
    return summed


@keys.command("status")
def status() -> None:
    """What each data key still encrypts, whether the lookup hashes agree with their key, and which
    secret keys are accepted."""
    settings = get_settings()
    names, cipher = key_names(settings), cipher_for(settings)
    engine = make_engine(settings.database_url)
    try:
        counts = _counts(engine)
        check = check_lookup_keys(engine, cipher, {key_id_of(key): lookup_key_of(key) for key in data_keys(settings)})
    finally:
        engine.dispose()
    click.echo("data keys: " + ", ".join(named(key_id, names) for key_id in names))
    for label, count in counts.items():
        click.echo(f"  {label}: {_described(count, cipher)}")
    click.echo(_lookup_line(check, settings, names))
    for line in old_key_verdicts(_sum(counts), settings):
        click.echo(line)
    click.echo(_secrets_line(settings))


def _described(count: Counter, cipher: DataCipher) -> str:
    if not count:
        return "no values"
    parts = [f"{number:,} written before key ids" if key_id is None
             else f"{number:,} under {key_id.hex()}{' (current)' if key_id == cipher.key_id else ''}"
             for key_id, number in count.most_common()]
    return f"{_values(sum(count.values()))}: " + ", ".join(parts)


def _lookup_line(check, settings: Settings, names: dict[bytes, str]) -> str:
    root = key_id_of(data_keys(settings)[-1])
    said = f"lookup hashes: keyed by the first data key ever used, {named(root, names)}"
    if not check.sampled:
        return f"{said}; no lead with a phone number to check them against yet"
    if check.agreeing[root] == check.sampled:
        return f"{said}; the {check.sampled} newest leads with a phone number agree"
    others = [key_id for key_id, count in check.agreeing.most_common() if key_id != root and count]
    fix = (f"the stored ones were made with {named(others[0], names)}: list it last in {OLD_KEYS}" if others else
           f"the stored ones were made with a key that is not configured: put the first data key ever used back, "
           f"last in {OLD_KEYS}")
    return (f"{said}, but only {check.agreeing[root]} of the {check.sampled} newest leads with a phone number agree: "
            f"{fix} (until then repeats and opt-outs are not recognised)")


def _secrets_line(settings: Settings) -> str:
    earlier = len(listed(settings.secret_keys_old))
    if not earlier:
        return "secret keys: SERVICEMATCH_SECRET_KEY only"
    return (f"secret keys: SERVICEMATCH_SECRET_KEY signs; {_values(earlier, 'earlier one')} "
            "(SERVICEMATCH_SECRET_KEYS_OLD) still accepted for what they signed: stop links (they last "
            f"{STOP_LINK_LIFETIME.days} days), known-device cookies ({DEVICE_LIFETIME.days} days), privacy codes "
            f"({int(CODE_LIFETIME.total_seconds() // 60)} minutes), lead status tokens and sessions' CSRF tokens "
            "(while listed)")


@keys.command("rotate")
@click.option("--batch-size", default=500, show_default=True, type=click.IntRange(1, 10_000),
              help="Values read and rewritten per transaction.")
@click.option("--pause-ms", default=0, show_default=True, type=click.IntRange(0, 60_000),
              help="Rest between batches, to leave intake more room on a busy database.")
@click.option("--progress-seconds", default=5.0, show_default=True, type=click.FloatRange(0.1),
              help="How often to report progress.")
def rotate(batch_size: int, pause_ms: int, progress_seconds: float) -> None:
    """Re-encrypt every value not under the current data key (SERVICEMATCH_DATA_KEY), in short
    transactions while the site runs; stopped at any point, run it again to carry on. The last line
    says which earlier keys can be dropped. Exit status 1 when a value no configured key reads remains."""
    settings = get_settings()
    cipher = cipher_for(settings)
    engine = make_engine(settings.database_url)
    try:
        unreadable = _rotate_all(engine, cipher, batch_size, pause_ms / 1000, progress_seconds)
        remaining = _sum(_counts(engine))
    finally:
        engine.dispose()
    for label, ids in unreadable.items():
        shown = ", ".join(ids[:5]) + (f" and {len(ids) - 5:,} more" if len(ids) > 5 else "")
        click.echo(f"{label}: {_values(len(ids))} no configured key reads (row ids {shown})")
    del remaining[cipher.key_id]
    click.echo("earlier keys: " + "; ".join(old_key_verdicts(remaining, settings)))
    if unreadable:
        raise SystemExit(1)


def _rotate_all(engine: Engine, cipher: DataCipher, batch_size: int, pause: float,
                every: float) -> dict[str, list[str]]:
    to_do = {column.label: pending(engine, column, cipher) for column in ENCRYPTED_COLUMNS}
    progress = Progress(to_do=sum(to_do.values()))
    click.echo(f"re-encrypting under data key {cipher.key_id.hex()}: {_values(progress.to_do)} to do"
               + "".join(f"; {label} {count:,}" for label, count in to_do.items() if count))
    shown_at = time.monotonic()

    def on_batch(batch: Batch) -> None:
        nonlocal shown_at
        progress.done += batch.rotated + batch.changed_meanwhile
        if time.monotonic() - shown_at >= every:
            shown_at = time.monotonic()
            click.echo(_progress_line(progress))

    unreadable = {}
    for column in (column for column in ENCRYPTED_COLUMNS if to_do[column.label]):
        if ids := rotate_column(engine, column, cipher, batch_size=batch_size, pause_seconds=pause, on_batch=on_batch):
            unreadable[column.label] = ids
    click.echo(f"re-encrypted {_values(progress.done)} in {_duration(progress.seconds)} "
               f"({progress.rate:,.0f} a second)")
    return unreadable


def _progress_line(progress: Progress) -> str:
    share = progress.done / progress.to_do if progress.to_do else 1.0
    left = progress.seconds_left
    return (f"re-encrypted {progress.done:,} of {progress.to_do:,} ({share:.1%}), {progress.rate:,.0f} a second"
            + (f", about {_duration(left)} left" if left is not None else ""))


def _values(count: int, what: str = "value") -> str:
    return f"{count:,} {what}" + ("" if count == 1 else "s")


def _duration(seconds: float) -> str:
    if seconds < 1:
        return "under 1 s"
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def backup_command(path: Path) -> None:
    """Copy the database consistently while the site runs into PATH, a new file (SQLite: the online
    backup API; PostgreSQL: pg_dump -Fc, or the command to run where pg_dump is installed)."""
    settings = get_settings()
    try:
        made = backup(settings.database_url, path)
    except BackupRefused as refused:
        raise SafeClickException(str(refused)) from None
    click.echo(f"backup: {made.path} ({made.size:,} bytes, {made.how}, {made.seconds:.1f} s)")
    if settings.is_sqlite:
        click.echo("restore: stop the site, then copy it over the database file (removing the file's -wal "
                   "and -shm beside it)")
    else:
        click.echo(f"restore: into an empty database, `pg_restore --no-owner --dbname=<its URL> {made.path}`")
