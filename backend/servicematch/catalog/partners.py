"""The published marketing-partners lists: every company a consenting consumer may hear from.

The consent text names "{brand} and its marketing partners". The list shown behind that link is
the catalogue's fixed partners (catalog/marketing-partners.yaml), the SERVICEMATCH_BUYER_URL
buyer by its SERVICEMATCH_BUYER_NAME, and every company that can receive a consumer's details
now: active buyers (routing's `buyers` table) and active providers (delivery's `providers`
table), by their display names. Each different list is published once, as an immutable version;
a consent record names the version current when the consumer agreed, and routing sells or offers
a lead only to companies on that version (docs/partners.md).

Publishing follows the companies wherever they change (the CLI, the console, the admin API, the
portal, joining): any transaction that adds, removes, renames, activates or deactivates a buyer
or provider publishes in its own commit when the set of names changed, and the process's cached
list is replaced once it commits. Start-up publishes when the catalogue's list or the fixed buyer
changed. Intake reads the cached list (refreshed every few seconds), never the table per lead.

This module sits below routing and delivery, so it reads their two tables by name, the `name` and
`active` columns only, and imports neither.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
import weakref
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import (
    JSON,
    DateTime,
    Engine,
    String,
    Text,
    column,
    event,
    inspect,
    select,
    table,
    text,
    true,
)
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from servicematch.kernel.clock import as_utc, utcnow
from servicematch.kernel.orm import Base
from servicematch.settings import Settings

from .schema import MarketingPartners

log = logging.getLogger("servicematch.catalog")

# The tables of the companies that can receive a consumer's details, and the columns that decide
# whether (and by which name) each is on the list.
COMPANY_TABLES = ("buyers", "providers")
LISTED_COLUMNS = ("name", "active")
# How long a process trusts its cached current list before reading the table again.
REFRESH_SECONDS = 5.0
# consent_records.partner_list_version is 32 characters.
VERSION_LENGTH = 32
_CHANGED = "servicematch.partners_changed"
_PUBLISHED = "servicematch.partners_published"
_PUBLISHING = "servicematch.partners_publishing"
# pg_advisory_xact_lock key: publishers on PostgreSQL take turns, so none misses another's company.
_PUBLISH_LOCK = 7_146_524_311


class PartnerListVersion(Base):
    """One published marketing-partners list, never changed once written."""

    __tablename__ = "partner_list_versions"

    # "20261127T232412.123Z-1a2b3c4d": when, and a digest of the names.
    id: Mapped[str] = mapped_column(String(VERSION_LENGTH), primary_key=True)
    # Every name shown, sorted: `standing` plus the companies.
    partners: Mapped[list] = mapped_column(JSON)
    # The names that come from configuration (the catalogue's list and the fixed buyer), kept so a
    # company's change republishes them as they were.
    standing: Mapped[list] = mapped_column(JSON)
    note: Mapped[str] = mapped_column(Text)
    published_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


@dataclass(frozen=True)
class PartnerList:
    """A list as shown: its version id, the note under it and the names."""

    version: str
    note: str
    partners: tuple[str, ...]
    published_at: datetime | None = None

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.partners)


def _sorted_names(names) -> list[str]:
    unique = {" ".join(str(name).split()) for name in names if name and str(name).strip()}
    return sorted(unique, key=lambda name: (name.casefold(), name))


def version_id(names: list[str], note: str, now: datetime) -> str:
    digest = hashlib.sha256(json.dumps([names, note], separators=(",", ":")).encode()).hexdigest()[:8]
    stamp = as_utc(now).strftime("%Y%m%dT%H%M%S.%f")[:-3]
    return f"{stamp}Z-{digest}"


def standing_names(marketing_partners: MarketingPartners, settings: Settings) -> list[str]:
    """The catalogue's partners and, when leads go to SERVICEMATCH_BUYER_URL, its buyer by name.

    An unnamed fixed buyer is on no list (a consumer cannot recognise it), so routing skips it."""
    names = list(marketing_partners.partners)
    if settings.buyer_url and settings.buyer_name.strip():
        names.append(settings.buyer_name)
    return _sorted_names(names)


def company_names(session: Session) -> list[str]:
    """Active buyers and active providers, by name: each can receive a consumer's details."""
    names: list[str] = []
    for table_name in COMPANY_TABLES:
        companies = table(table_name, column("name"), column("active"))
        names.extend(session.execute(select(companies.c.name).where(companies.c.active == true())).scalars())
    return names


def latest_version(session: Session) -> PartnerListVersion | None:
    return session.scalars(select(PartnerListVersion)
                           .order_by(PartnerListVersion.published_at.desc(), PartnerListVersion.id.desc())
                           .limit(1)).first()


def list_versions(session: Session, *, limit: int = 50) -> list[PartnerListVersion]:
    """The published versions, newest first."""
    return list(session.scalars(select(PartnerListVersion)
                                .order_by(PartnerListVersion.published_at.desc(), PartnerListVersion.id.desc())
                                .limit(limit)))


def _take_turn(session: Session) -> None:
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PUBLISH_LOCK})


def publish(session: Session, *, standing: list[str] | None = None, note: str | None = None,
            now: datetime | None = None) -> PartnerListVersion | None:
    """Publish the current list in the session's transaction when it differs from the latest one
    (the caller commits); None when nothing changed. Without `standing`/`note`, the latest
    version's are kept: a company's change republishes the configured names as they were."""
    _take_turn(session)
    latest = latest_version(session)
    if standing is None or note is None:
        if latest is None:
            return None  # nothing published yet: start-up publishes the first list, companies included
        standing = list(latest.standing) if standing is None else standing
        note = latest.note if note is None else note
    standing = _sorted_names(standing)
    names = _sorted_names([*standing, *company_names(session)])
    if latest is not None and (list(latest.partners), list(latest.standing), latest.note) == (names, standing, note):
        return None
    now = now or utcnow()
    version = PartnerListVersion(id=version_id(names, note, now), partners=names, standing=standing, note=note,
                                 published_at=now)
    session.add(version)
    session.info[_PUBLISHED] = version
    log.info("published marketing-partners list %s (%d names)", version.id, len(names))
    return version


def publish_at_start_up(session_factory: sessionmaker[Session], *, marketing_partners: MarketingPartners,
                        settings: Settings) -> None:
    """A new version when the catalogue's list, its note or the fixed buyer changed (or none exists).

    A database without the table yet (not migrated) is left alone: intake then records the
    catalogue's own version, on which routing finds no company."""
    try:
        with session_factory() as session:
            publish(session, standing=standing_names(marketing_partners, settings), note=marketing_partners.note)
            session.commit()
    except SQLAlchemyError:
        log.exception("could not publish the marketing-partners list at start-up")


# -- publishing when a company changes --------------------------------------------------------------

def _is_company(instance) -> bool:
    return getattr(instance, "__tablename__", None) in COMPANY_TABLES


def _listing_changed(instance) -> bool:
    """A stored company whose name or active flag changed (not, say, its round-robin turn)."""
    if not _is_company(instance):
        return False
    attrs = inspect(instance).attrs
    return any(attrs[name].history.has_changes() for name in LISTED_COLUMNS if name in attrs)


@event.listens_for(Session, "after_flush")
def _note_company_changes(session: Session, _context) -> None:
    if session.info.get(_CHANGED):
        return
    if (any(_is_company(instance) for instance in session.new)
            or any(_is_company(instance) for instance in session.deleted)
            or any(_listing_changed(instance) for instance in session.dirty)):
        session.info[_CHANGED] = True


@event.listens_for(Session, "before_commit")
def _publish_on_commit(session: Session) -> None:
    # A savepoint's release fires this too: only the transaction that really commits publishes.
    if session.info.get(_PUBLISHING) or session.in_nested_transaction():
        return
    session.flush()  # the commit flushes after this hook: flush now to see the last changes
    if not session.info.pop(_CHANGED, False):
        return
    session.info[_PUBLISHING] = True
    try:
        publish(session)
    finally:
        session.info.pop(_PUBLISHING, None)


@event.listens_for(Session, "after_commit")
def _share_published(session: Session) -> None:
    if session.in_nested_transaction():
        return
    version = session.info.pop(_PUBLISHED, None)
    if version is None:
        return
    try:
        cache = _caches.get(session.get_bind())
    except (TypeError, SQLAlchemyError):  # bound to no engine this process caches a list for
        return
    if cache is not None:
        cache.replace(_as_list(version))


@event.listens_for(Session, "after_soft_rollback")
def _forget_changes(session: Session, _previous_transaction) -> None:
    session.info.pop(_CHANGED, None)
    session.info.pop(_PUBLISHED, None)


# -- the current list, cached per process -------------------------------------------------------

def _as_list(version: PartnerListVersion) -> PartnerList:
    return PartnerList(version=version.id, note=version.note, partners=tuple(version.partners),
                       published_at=as_utc(version.published_at))


class CurrentPartnerList:
    """One database's current list in this process: read again after REFRESH_SECONDS, replaced at
    once by a publish committed in this process. Reading it costs no query in between."""

    def __init__(self, session_factory: sessionmaker[Session], fallback: PartnerList) -> None:
        self.session_factory = session_factory
        self.fallback = fallback
        self._lock = threading.Lock()
        self._value: PartnerList | None = None
        self._read_at = 0.0

    def get(self) -> PartnerList:
        value = self._value
        if value is not None and time.monotonic() - self._read_at < REFRESH_SECONDS:
            return value
        with self._lock:
            if self._value is not None and time.monotonic() - self._read_at < REFRESH_SECONDS:
                return self._value
            self._value, self._read_at = self._read(self._value), time.monotonic()
            return self._value

    def replace(self, value: PartnerList) -> None:
        with self._lock:
            self._value, self._read_at = value, time.monotonic()

    def _read(self, known: PartnerList | None) -> PartnerList:
        try:
            with self.session_factory() as session:
                latest_id = session.scalars(select(PartnerListVersion.id).order_by(
                    PartnerListVersion.published_at.desc(), PartnerListVersion.id.desc()).limit(1)).first()
                if latest_id is None:
                    return self.fallback
                if known is not None and known.version == latest_id:
                    return known
                return _as_list(session.get(PartnerListVersion, latest_id))
        except SQLAlchemyError:
            log.exception("could not read the marketing-partners list")
            return known or self.fallback


_caches: weakref.WeakKeyDictionary[Engine, CurrentPartnerList] = weakref.WeakKeyDictionary()
_caches_lock = threading.Lock()


def current_partner_list(session_factory: sessionmaker[Session], fallback: MarketingPartners) -> PartnerList:
    """The list a consumer is shown now (cached: see CurrentPartnerList). `fallback`, the
    catalogue's own list, answers only while nothing is published."""
    engine = session_factory.kw["bind"]
    cache = _caches.get(engine)
    if cache is None:
        with _caches_lock:
            cache = _caches.get(engine)
            if cache is None:
                cache = CurrentPartnerList(session_factory, PartnerList(
                    version=fallback.version, note=fallback.note, partners=tuple(fallback.partners)))
                _caches[engine] = cache
    return cache.get()


# -- a lead's version, for routing ---------------------------------------------------------------

_names_by_version: dict[str, frozenset[str]] = {}
_NAMES_KEPT = 256


def names_on_version(session: Session, version: str | None) -> frozenset[str]:
    """The names on a published version (versions never change, so they are kept once read); none
    for an unknown version: a lead consented to no company routing could find."""
    if not version:
        return frozenset()
    names = _names_by_version.get(version)
    if names is None:
        row = session.get(PartnerListVersion, version)
        if row is None:
            return frozenset()
        names = frozenset(row.partners)
        if len(_names_by_version) >= _NAMES_KEPT:
            _names_by_version.clear()
        _names_by_version[version] = names
    return names


def listed(name: str | None, names: frozenset[str]) -> bool:
    """Whether a company's display name is on a list (spacing as the list writes names)."""
    return bool(name) and " ".join(name.split()) in names


def not_listed_reason(version: str | None) -> str:
    return f"not on the marketing-partners list the consumer saw (version {version or 'none'})"
