"""Command line: `servicematch serve`, `servicematch migrate`, and operations commands."""

from __future__ import annotations

import logging
import os

import click

from servicematch.kernel.logs import LogFormat, configure_logging, logging_config
from servicematch.settings import SettingsError, get_settings, load_settings, served_origin


class _Commands(click.Group):
    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except SettingsError as error:
            # Every problem at once, one line each: a traceback would show only the first.
            raise click.ClickException(str(error)) from None


@click.group(cls=_Commands)
def main() -> None:
    """ServiceMatch server and operations commands."""
    configure_logging(_log_format())


def _log_format() -> LogFormat:
    # Read without get_settings, whose warnings (a mistyped variable) are then written in this format.
    try:
        return load_settings().log_format
    except SettingsError:
        return "text"  # the command lists the problems once it reads its settings


@main.command()
def migrate() -> None:
    """Apply every database migration to SERVICEMATCH_DATABASE_URL."""
    from servicematch.schema.migrate import upgrade

    settings = get_settings()
    upgrade(settings.database_url)
    click.echo("database is up to date")


@main.command()
@click.option("--host", default=lambda: os.environ.get("HOST", "127.0.0.1"), show_default="HOST or 127.0.0.1")
@click.option("--port", default=lambda: int(os.environ.get("PORT", "8000")), type=int,
              show_default="PORT or 8000")
@click.option("--workers", default=1, show_default=True, help="Web processes (PostgreSQL only).")
@click.option("--migrate/--no-migrate", "run_migrations", default=True, show_default=True,
              help="Apply migrations before serving.")
@click.option("--worker/--no-worker", "run_worker", default=True, show_default=True,
              help="Run the delivery worker beside each web process, as its child process.")
def serve(host: str, port: int, workers: int, run_migrations: bool, run_worker: bool) -> None:
    """Serve the site, the API and /docs."""
    import uvicorn

    if not run_worker:
        # The app factory reads settings from the environment, in this process and in its children.
        os.environ["SERVICEMATCH_WORKER_ENABLED"] = "false"
        get_settings.cache_clear()
    settings = get_settings()
    if settings.environment != "production" and "site_origin" not in settings.model_fields_set:
        # Links in mail point to the port being served (production must name its origin).
        os.environ["SERVICEMATCH_SITE_ORIGIN"] = served_origin(host, port)
        get_settings.cache_clear()
        settings = get_settings()
    if run_migrations:
        from servicematch.schema.migrate import upgrade

        upgrade(settings.database_url)
    if workers > 1 and settings.is_sqlite:
        raise click.UsageError("several web processes need PostgreSQL; SQLite takes one writer")
    uvicorn.run("servicematch.app:create_served_app", factory=True, host=host, port=port, workers=workers,
                proxy_headers=False, access_log=False, log_config=logging_config(settings.log_format))


@main.command("check-catalog")
def check_catalog() -> None:
    """Validate every catalogue file and report what it holds."""
    from servicematch.catalog.loader import CatalogError, load_catalog

    try:
        index = load_catalog(get_settings().catalog_dir)
    except CatalogError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"{len(index.catalog.categories)} categories, {len(index.catalog.services)} services: ok")


@main.command()
@click.option("--once", is_flag=True, help="Route and send what is due now, then exit.")
def worker(once: bool) -> None:
    """Run a worker (routing and delivery) as its own process (several side by side on PostgreSQL)."""
    import signal
    import threading

    from servicematch.db.session import make_engine, make_session_factory
    from servicematch.db.wake_across import Listener, told_across
    from servicematch.kernel.heap import tune_for_serving
    from servicematch.ops.sentry import start_sentry
    from servicematch.workers import make_worker

    settings = get_settings()
    if not once:
        # Counted into the deployment's shared metric files (a one-off run would clear them when
        # no web process runs).
        from servicematch.kernel.metrics import share_metrics_in

        share_metrics_in(settings.metrics_dir, process_kind="worker")
    start_sentry(settings)  # its errors to Sentry, as the web processes' (SERVICEMATCH_SENTRY_DSN)
    lead_worker = make_worker(session_factory=make_session_factory(make_engine(settings.database_url)),
                              settings=settings)
    if once:
        click.echo(f"attempted {lead_worker.run_until_idle()} deliveries")
        lead_worker.close()
        return
    if settings.is_sqlite:
        # A log line, not an echo: in SERVICEMATCH_LOG_FORMAT=json, everything on stderr is JSON.
        logging.getLogger("servicematch").warning(
            "SQLite: run one worker only (and `serve --no-worker` alongside it)")
    tune_for_serving()
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    # On PostgreSQL, web processes NOTIFY new work: this worker takes it at once, not at its poll.
    listener = Listener(settings.database_url) if told_across(settings.database_url) else None
    if listener is not None:
        listener.start()
    click.echo(f"delivery worker {lead_worker.worker_id} running; Ctrl-C stops it")
    try:
        lead_worker.run_forever(stop)
    finally:
        if listener is not None:
            listener.stop()
        lead_worker.close()


def _add_delivery_commands() -> None:
    from servicematch.console.commands import deliveries
    from servicematch.delivery import commands as delivery
    from servicematch.routing import commands as routing

    for command in (routing.buyers, delivery.providers, deliveries, delivery.leads):
        main.add_command(command)


def _add_mail_and_privacy_commands() -> None:
    from servicematch.mail.commands import mail
    from servicematch.privacy.commands import retention

    main.add_command(mail)
    main.add_command(retention)


def _add_console_commands() -> None:
    from servicematch.buyer.commands import invite as invite_buyer_person
    from servicematch.console.commands import operators
    from servicematch.console.invoice_mail import issue_and_mail
    from servicematch.console.payment_commands import payments
    from servicematch.delivery.commands import providers
    from servicematch.ledger.invoice_commands import invoice_commands
    from servicematch.portal.commands import invite
    from servicematch.routing.commands import buyers

    main.add_command(operators)
    main.add_command(payments)
    main.add_command(invoice_commands(issue_and_mail), "invoices")
    providers.add_command(invite)
    buyers.add_command(invite_buyer_person)


def _add_ledger_commands() -> None:
    from servicematch.delivery.commands import providers
    from servicematch.ledger.commands import ledger
    from servicematch.ledger.terms_cli import add_provider, update_provider

    main.add_command(ledger)
    # `providers add` with how the provider pays, in place of delivery's own (which knows nothing of
    # the ledger); and `providers update`.
    providers.add_command(add_provider)
    providers.add_command(update_provider)


def _add_quality_commands() -> None:
    from servicematch.console.suppression_commands import suppression

    main.add_command(suppression)


def _add_key_and_backup_commands() -> None:
    from servicematch.ops.key_commands import backup_command, keys

    main.add_command(keys)
    main.add_command(backup_command)


_add_delivery_commands()
_add_console_commands()
_add_mail_and_privacy_commands()
_add_ledger_commands()
_add_quality_commands()
_add_key_and_backup_commands()

if __name__ == "__main__":
    main()
