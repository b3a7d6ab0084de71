"""Running `servicematch` commands in tests as a shell would: against the test database, with the
settings read from the environment (SERVICEMATCH_*), afresh before and after."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click
from click.testing import CliRunner, Result

from servicematch.cli import main
from servicematch.settings import Settings, get_settings


@contextmanager
def shell_cli(monkeypatch, settings: Settings, command: click.Command = main, env: dict[str, str] | None = None,
              unset: tuple[str, ...] = ()) -> Iterator[Callable[..., Result]]:
    """A function running `command` with its arguments; `env` adds SERVICEMATCH_* settings (names
    without the prefix), `unset` removes some."""
    for name, value in {"DATABASE_URL": settings.database_url, "DATA_KEY": settings.data_key,
                        "ENVIRONMENT": "test", **(env or {})}.items():
        monkeypatch.setenv(f"SERVICEMATCH_{name}", value)
    for name in unset:
        monkeypatch.delenv(f"SERVICEMATCH_{name}", raising=False)
    get_settings.cache_clear()
    try:
        yield lambda *args: CliRunner().invoke(command, list(args), catch_exceptions=False)
    finally:
        get_settings.cache_clear()
