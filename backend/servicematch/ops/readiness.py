"""GET /api/ready: whether this web process can serve (its database answers, and is migrated to the
schema this code expects), and when each worker last beat (ops/heartbeat.py).

/api/health stays the liveness check (the process answers). A load balancer takes a process out
while /api/ready answers 503 and back once it answers 200. A stale worker does not make the web
process unready (it still takes leads, which wait for a worker): the answer reports the beats, and
alerts judge them (docs/operations.md).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import Connection, inspect, text
from sqlalchemy.exc import SQLAlchemyError

from servicematch.deps import EngineDep, app_part, install_part

from .heartbeat import last_beats

router = APIRouter(prefix="/api", tags=["ops"])
MigrationsDir = Annotated[Path, Depends(app_part("migrations_dir"))]


class WorkerBeat(BaseModel):
    workerId: str
    secondsSinceBeat: float = Field(description="Seconds since the worker last wrote its heartbeat "
                                                "(every 5 s while it runs)")


class Readiness(BaseModel):
    status: Literal["ready", "unavailable"]
    database: Literal["ok", "unreachable"]
    migration: str | None = Field(description="The database's migration revision (null: none, or unreachable)")
    expectedMigration: str = Field(description="The newest migration this code has")
    problems: list[str] = Field(description="Why the process is unavailable, a sentence each")
    workers: list[WorkerBeat] = Field(description="Every worker on record, the latest beat first")


def install_readiness(app: FastAPI, *, migrations_dir: Path) -> None:
    """GET /api/ready, judging the database's revision against the migrations in `migrations_dir`."""
    install_part(app, "migrations_dir", migrations_dir)
    app.include_router(router)


@router.get("/ready", summary="Readiness: the database answers and is migrated; workers' last heartbeats",
            response_model=Readiness,
            responses={503: {"model": Readiness, "description": "Not ready: the database is unreachable or "
                                                                 "its migrations are behind"}})
def ready(engine: EngineDep, migrations_dir: MigrationsDir) -> JSONResponse:
    expected = expected_revision(migrations_dir)
    revision: str | None = None
    workers: list[WorkerBeat] = []
    try:
        with engine.connect() as connection:
            revision = database_revision(connection)
            if not is_behind(revision, migrations_dir):  # behind, the heartbeats' table may not be there yet
                workers = [WorkerBeat(workerId=worker_id, secondsSinceBeat=round(seconds, 1))
                           for worker_id, seconds in last_beats(connection)]
        database = "ok"
    except SQLAlchemyError:
        database = "unreachable"
    problems = []
    if database != "ok":
        problems.append("The database cannot be reached.")
    elif is_behind(revision, migrations_dir):
        problems.append(f"The database is at migration {revision or '(none)'}, this code expects {expected}: "
                        "run `servicematch migrate`.")
    answer = Readiness(status="unavailable" if problems else "ready", database=database, migration=revision,
                       expectedMigration=expected, problems=problems, workers=workers)
    return JSONResponse(answer.model_dump(mode="json"), status_code=503 if problems else 200)


def is_behind(revision: str | None, migrations_dir: Path) -> bool:
    """Whether the database lacks migrations this code ships: no revision, or an older one of its own.
    A revision this code does not know is newer code's (migrated ahead, during a deployment): the
    old processes keep serving, as migrations keep the code before them working."""
    return revision is None or (revision != expected_revision(migrations_dir)
                                and revision in known_revisions(migrations_dir))


def database_revision(connection: Connection) -> str | None:
    """The revision Alembic recorded in the database (None before the first migration).

    Read with a query of its own, not Alembic's MigrationContext, which logs two lines each time:
    a probe every few seconds would fill the log."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    heads = connection.execute(text("SELECT version_num FROM alembic_version")).scalars()
    return ",".join(sorted(heads)) or None


def expected_revision(migrations_dir: Path) -> str:
    """The head revision of the migrations this code ships."""
    return ",".join(sorted(_scripts(migrations_dir)[0]))


def known_revisions(migrations_dir: Path) -> frozenset[str]:
    """Every revision this code ships, the head and all before it."""
    return _scripts(migrations_dir)[1]


@lru_cache(maxsize=4)
def _scripts(migrations_dir: Path) -> tuple[tuple[str, ...], frozenset[str]]:
    # Read once (about 60 ms): the migrations do not change while the process runs.
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory(str(migrations_dir))
    return tuple(scripts.get_heads()), frozenset(script.revision for script in scripts.walk_revisions())
