"""Alembic environment: one database URL from the config, every model imported."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

from servicematch.schema.registry import metadata

config = context.config
target_metadata = metadata


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = create_engine(config.get_main_option("sqlalchemy.url"), poolclass=pool.NullPool,
                           hide_parameters=True)
    with engine.connect() as connection:
        # Batch mode lets ALTER TABLE work on SQLite by rebuilding the table.
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
