"""A consistent copy of the database while the site runs (`servicematch backup PATH`).

SQLite: the sqlite3 module's online backup API, in one step: one read transaction, which in WAL
mode (db/session.py) never blocks the web processes' writes, so the copy is the database as it
stood at one moment. PostgreSQL: `pg_dump -Fc` when it is installed (its own snapshot is as
consistent); otherwise the command to run, with the URL's parts and never its password.

Either way the copy is written beside PATH under a temporary name (mode 0600: it holds personal
data, encrypted, and consent records) and linked into place only when complete, so an existing
file is never overwritten and a failed backup leaves no half-written file at PATH.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import URL, make_url


class BackupRefused(Exception):
    """Nothing was written: the reason, in words."""


@dataclass(frozen=True)
class BackupMade:
    path: Path
    size: int
    seconds: float
    how: str


def refuse_existing(target: Path) -> None:
    if target.exists() or target.is_symlink():
        raise BackupRefused(f"{target} exists already: a backup never overwrites a file; name a new one")
    if not target.parent.is_dir():
        raise BackupRefused(f"{target.parent} is not a folder")


@contextmanager
def _draft_beside(target: Path) -> Iterator[Path]:
    """A private file next to `target`, linked into place at the end of the block; removed in any case."""
    draft = target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.partial")
    os.close(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        yield draft
        try:
            os.link(draft, target)  # fails, rather than replaces, when a file appeared there meanwhile
        except FileExistsError:
            raise BackupRefused(f"{target} appeared while the backup ran: nothing was overwritten") from None
    finally:
        draft.unlink(missing_ok=True)


def backup_sqlite(database_path: Path, target: Path) -> BackupMade:
    """Copy a live SQLite database with the online backup API, then check the copy reads whole."""
    if not database_path.is_file():
        raise BackupRefused(f"there is no SQLite database at {database_path}")
    refuse_existing(target)
    started = time.monotonic()
    with _draft_beside(target) as draft:
        source = sqlite3.connect(database_path, timeout=30)
        copy = sqlite3.connect(draft)
        try:
            source.backup(copy)  # every page in one step: one snapshot, writers carry on (WAL)
            # A single file, with no -wal beside it, whatever mode the live database is in.
            copy.execute("PRAGMA journal_mode=DELETE")
            verdict = copy.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            copy.close()
            source.close()
        if verdict != "ok":
            raise BackupRefused(f"the copy did not pass SQLite's quick_check ({verdict}); nothing was kept")
    return BackupMade(path=target, size=target.stat().st_size, seconds=time.monotonic() - started,
                      how="SQLite online backup")


def pg_dump_command(database_url: str, target: Path) -> tuple[list[str], dict[str, str]]:
    """`pg_dump -Fc` for this database: (the command, the environment it needs). The password goes
    in PGPASSWORD, never on the command line (where `ps` would show it) or on the screen."""
    url = make_url(database_url)
    libpq_url = URL.create("postgresql", username=url.username, host=url.host, port=url.port,
                           database=url.database, query=url.query).render_as_string(hide_password=False)
    command = ["pg_dump", "--format=custom", f"--file={target}", f"--dbname={libpq_url}"]
    secret = {"PGPASSWORD": url.password} if url.password else {}
    return command, secret


def backup_postgres(database_url: str, target: Path) -> BackupMade:
    """Run pg_dump -Fc into `target`; BackupRefused naming the command when pg_dump is not installed."""
    refuse_existing(target)
    if shutil.which("pg_dump") is None:
        shown, _ = pg_dump_command(database_url, target)
        raise BackupRefused("PostgreSQL is backed up with pg_dump, which is not installed here. Run, where it is "
                            f"(the password from PGPASSWORD or ~/.pgpass):\n  {shlex.join(shown)}")
    started = time.monotonic()
    with _draft_beside(target) as draft:
        command, secret = pg_dump_command(database_url, draft)
        done = subprocess.run(command, env={**os.environ, **secret}, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise BackupRefused(f"pg_dump failed (exit status {done.returncode}); nothing was kept:\n"
                                f"{done.stderr.strip()}")
    return BackupMade(path=target, size=target.stat().st_size, seconds=time.monotonic() - started,
                      how="pg_dump -Fc")


def backup(database_url: str, target: Path) -> BackupMade:
    """A consistent copy of the database at `database_url` in the new file `target`."""
    if database_url.startswith("sqlite"):
        path = make_url(database_url).database
        if not path or path == ":memory:":
            raise BackupRefused("an in-memory SQLite database has nothing to back up")
        return backup_sqlite(Path(path), target)
    return backup_postgres(database_url, target)
