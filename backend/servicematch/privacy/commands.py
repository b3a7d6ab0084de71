"""`servicematch retention run`: apply the retention periods now (the worker does it daily)."""

from __future__ import annotations

import click

from servicematch.settings import get_settings


@click.group()
def retention() -> None:
    """Erase lead personal data and delete old consent proof after their retention periods."""


@retention.command("run")
def run() -> None:
    """Erase personal data older than SERVICEMATCH_LEAD_RETENTION_DAYS, delete consent proof older
    than SERVICEMATCH_CONSENT_RETENTION_DAYS, close unverified privacy requests."""
    from servicematch.db.session import make_engine, make_session_factory
    from servicematch.privacy.retention import run_retention

    settings = get_settings()
    engine = make_engine(settings.database_url)
    try:
        counts = run_retention(session_factory=make_session_factory(engine), settings=settings)
    finally:
        engine.dispose()
    click.echo(", ".join(f"{name.replace('_', ' ')}: {count}" for name, count in counts.items()))
