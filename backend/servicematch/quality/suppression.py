"""Suppression lists: phones and e-mails no buyer is sold (a global list), or one buyer is not
pinged with (that buyer's own list, e.g. its existing customers). docs/quality.md, "Suppression lists".

Nothing is stored in clear: a plain entry is normalised (a phone to its 10 US digits, an e-mail
trimmed and lower-cased) and kept as its SHA-256; a hashed file's digests are kept as they came
(MD5 or SHA-256). A lead is checked by hashing its phone and e-mail both ways and probing the
entries' primary key once for all of them, so the check costs one indexed query whatever the
lists hold. The import is in quality/suppression_import.py, the commands in
console/suppression_commands.py.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeVar

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    and_,
    bindparam,
    column,
    delete,
    func,
    or_,
    select,
    table,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from servicematch.errors import NotFound, ServiceMatchError
from servicematch.inbound.validation import PHONE_FORMATTING, normalise_email
from servicematch.intake.models import Lead
from servicematch.intake.payload import decrypt_personal_data
from servicematch.kernel.clock import utcnow
from servicematch.kernel.orm import Base
from servicematch.settings import Settings


class EntryKind:
    PHONE = "phone"
    EMAIL = "email"


class Algorithm:
    MD5 = "md5"
    SHA256 = "sha256"


KINDS = (EntryKind.PHONE, EntryKind.EMAIL)
ALGORITHMS = (Algorithm.MD5, Algorithm.SHA256)
HEX_LENGTH = {Algorithm.MD5: 32, Algorithm.SHA256: 64}
# A list's name is part of the reason code a suppressed lead carries ("suppressed:litigators").
LIST_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")
BAD_NAME = ("A list's name is 1 to 64 lower-case letters, digits, dots, dashes or underscores, "
            "starting with a letter or digit (e.g. litigators, dnc-internal).")
REASON_PREFIX = "suppressed:"
MAX_EMAIL_LENGTH = 254


class SuppressionList(Base):
    """A named list of phones or of e-mails: global (buyer_id empty) or one buyer's own."""

    __tablename__ = "suppression_lists"
    # SQLite: AUTOINCREMENT, so a removed list's id is never given to a new one.
    __table_args__ = ({"sqlite_autoincrement": True},)

    # An integer, not a UUID: every entry carries it, and a list may hold ten million entries.
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(8))
    # Set: the list applies to this buyer only (it is not pinged for a lead on it).
    buyer_id: Mapped[str | None] = mapped_column(String(36), ForeignKey("buyers.id"), index=True)
    description: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    created_by: Mapped[str] = mapped_column(String(254))
    # Digests stored for the list (a plain entry is one digest; a file hashed both ways, two).
    entry_count: Mapped[int] = mapped_column(BigInteger, default=0)


class SuppressionEntry(Base):
    """One digest on one list. The primary key is the lookup: (algorithm, digest) leads, so a
    lead's digests are found with one probe each whatever list holds them. No foreign key to the
    list: its check on every inserted row would slow a ten-million-line import by a third, and an
    entry whose list is gone never matches (the check joins the lists); removing a list deletes
    its entries in the same transaction."""

    __tablename__ = "suppression_entries"
    # SQLite: the primary key is the table (no rowid beside it), half the size of a rowid table.
    __table_args__ = ({"sqlite_with_rowid": False},)

    algorithm: Mapped[str] = mapped_column(String(6), primary_key=True)
    digest: Mapped[bytes] = mapped_column(LargeBinary(32), primary_key=True)
    list_id: Mapped[int] = mapped_column(Integer, primary_key=True)


def normalise_phone(value: str) -> str | None:
    """The 10 US digits (a leading +1 or 1 and punctuation dropped), or None when it is not one."""
    digits = PHONE_FORMATTING.sub("", value)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    # No North American area code starts with 0 or 1; isascii keeps out other scripts' digits.
    if len(digits) != 10 or not (digits.isascii() and digits.isdigit()) or digits[0] in "01":
        return None
    return digits


def normalise_list_email(value: str) -> str | None:
    """Trimmed and lower-cased, or None when it cannot be an address (no @, spaces inside)."""
    email = normalise_email(value)
    local, at, domain = email.rpartition("@")
    if not at or not local or "." not in domain or len(email) > MAX_EMAIL_LENGTH or any(c.isspace() for c in email):
        return None
    return email


def normalise(kind: str, value: str) -> str | None:
    return normalise_phone(value) if kind == EntryKind.PHONE else normalise_list_email(value)


def sha256_hex(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def list_name(value: str) -> str:
    """The list's name as stored (trimmed, lower case); a clear 422 when it cannot be one."""
    name = (value or "").strip().lower()
    if not LIST_NAME.fullmatch(name):
        raise ServiceMatchError(BAD_NAME, fields={"name": BAD_NAME}, status_code=422)
    return name


@dataclass(frozen=True)
class Suppression:
    """What the lists say of one lead: the global lists it is on (sold to nobody, offered to
    nobody) and, of the buyers asked about, those whose own list holds it (not pinged)."""

    global_lists: list[str] = field(default_factory=list)
    buyers: dict[str, str] = field(default_factory=dict)

    @property
    def blocks_everyone(self) -> bool:
        return bool(self.global_lists)

    def reason_codes(self) -> list[str]:
        """The lead's quality reasons: one `suppressed:<list>` per global list it is on."""
        return [f"{REASON_PREFIX}{name}" for name in self.global_lists]


def _phone_forms(digits: str) -> tuple[str, ...]:
    """Our form (10 digits) first; buyers' files hashed for the ad platforms come with the country
    code, as digits (Meta's "15125550142") or E.164 (Google's "+15125550142"), and match too."""
    return digits, f"1{digits}", f"+1{digits}"


def lead_digests(*, phone: str | None, email: str | None) -> dict[tuple[str, bytes], str]:
    """(algorithm, digest) -> the kind of value it hashes, for a lead's phone and e-mail."""
    values: list[tuple[str, str]] = []
    digits = normalise_phone(phone or "")
    if digits:
        values.extend((EntryKind.PHONE, form) for form in _phone_forms(digits))
    address = normalise_list_email(email or "")
    if address:
        values.append((EntryKind.EMAIL, address))
    digests: dict[tuple[str, bytes], str] = {}
    for kind, value in values:
        data = value.encode()
        digests[(Algorithm.SHA256, hashlib.sha256(data).digest())] = kind
        digests[(Algorithm.MD5, hashlib.md5(data, usedforsecurity=False).digest())] = kind
    return digests


Asker = TypeVar("Asker")

# Built once: only the values change from one lead to the next. An empty IN list matches nothing.
_LOOKUP = (
    select(SuppressionEntry.algorithm, SuppressionEntry.digest, SuppressionList.name, SuppressionList.kind,
           SuppressionList.buyer_id)
    .join(SuppressionList, SuppressionList.id == SuppressionEntry.list_id)
    .where(or_(*(and_(SuppressionEntry.algorithm == algorithm,
                      SuppressionEntry.digest.in_(bindparam(algorithm, expanding=True)))
                 for algorithm in ALGORITHMS)),
           or_(SuppressionList.buyer_id.is_(None), SuppressionList.buyer_id.in_(bindparam("buyers", expanding=True))))
)


def suppressed(session: Session, *, phone: str | None, email: str | None,
               buyer_ids: Iterable[str] = ()) -> Suppression:
    """The lists that hold this phone or e-mail: every global list, and the own lists of the buyers
    named. One query: the lead's digests are probed on the entries' primary key."""
    return suppressed_each(session, {None: (phone, email, buyer_ids)})[None]


def suppressed_each(session: Session,
                    asks: Mapping[Asker, tuple[str | None, str | None, Iterable[str]]]) -> dict[Asker, Suppression]:
    """`suppressed` for a round of leads, {key: (phone, e-mail, buyer ids)}, in one query: the
    digests of them all probed at once, each row then matched to the leads that carry its digest."""
    digests = {key: lead_digests(phone=phone, email=email) for key, (phone, email, _) in asks.items()}
    values: dict[str, set] = {algorithm: set() for algorithm in ALGORITHMS}
    for of_lead in digests.values():
        for algorithm, digest in of_lead:
            values[algorithm].add(digest)
    rows = session.execute(_LOOKUP, {**{algorithm: sorted(found) for algorithm, found in values.items()},
                                     "buyers": sorted({buyer_id for *_, buyer_ids in asks.values()
                                                       for buyer_id in buyer_ids})}).all() if any(values.values()) else []
    answers: dict[Asker, Suppression] = {}
    for key, (_, _, buyer_ids) in asks.items():
        global_lists: set[str] = set()
        buyers: dict[str, str] = {}
        wanted = set(buyer_ids)
        for algorithm, digest, name, kind, buyer_id in rows:
            # A phone list matches the lead's phone only, an e-mail list its e-mail only.
            if digests[key].get((algorithm, bytes(digest))) != kind:
                continue
            if buyer_id is None:
                global_lists.add(name)
            elif buyer_id in wanted and name < buyers.get(buyer_id, "\uffff"):
                buyers[buyer_id] = name
        answers[key] = Suppression(global_lists=sorted(global_lists), buyers=buyers)
    return answers


def lead_suppression(session: Session, settings: Settings, lead: Lead, buyer_ids: Iterable[str] = ()) -> Suppression:
    """`suppressed` for a stored lead: its phone and e-mail read from its encrypted personal data
    (as its buyer payload is built); an erased lead has neither and is on no list."""
    contact = decrypt_personal_data(lead=lead, settings=settings).get("contact") or {}
    return suppressed(session, phone=contact.get("phone"), email=contact.get("email"), buyer_ids=buyer_ids)


# The buyers table by its name, not its model: routing, which owns buyers, sits above quality.
BUYERS = table("buyers", column("id", String), column("name", String), column("created_at", DateTime))


@dataclass(frozen=True)
class ListView:
    id: int
    name: str
    kind: str
    buyer_id: str | None
    buyer_name: str | None
    description: str | None
    entry_count: int
    created_at: datetime
    created_by: str


def list_views(session: Session) -> list[ListView]:
    """Every list with its buyer's name, global lists first, then by name."""
    rows = session.execute(
        select(SuppressionList, BUYERS.c.name).outerjoin(BUYERS, BUYERS.c.id == SuppressionList.buyer_id)
        .order_by(SuppressionList.buyer_id.is_not(None), SuppressionList.name)).all()
    return [ListView(id=row.id, name=row.name, kind=row.kind, buyer_id=row.buyer_id, buyer_name=buyer_name,
                     description=row.description, entry_count=row.entry_count, created_at=row.created_at,
                     created_by=row.created_by) for row, buyer_name in rows]


def find_list(session: Session, name: str) -> SuppressionList:
    found = session.scalars(select(SuppressionList).where(SuppressionList.name == list_name(name))).first()
    if found is None:
        raise NotFound(f"No suppression list is named {name.strip()!r}.")
    return found


def remove_list(session: Session, found: SuppressionList) -> int:
    """Delete the list and its entries, in the caller's transaction; how many entries it had."""
    removed = session.execute(delete(SuppressionEntry).where(SuppressionEntry.list_id == found.id)).rowcount
    session.delete(found)
    session.flush()
    return removed


def find_buyer_id(session: Session, name_or_id: str) -> str:
    """The buyer with this id, or else the one buyer with exactly this name (any case), as
    `servicematch buyers` finds them; a clear error when there is none, or several."""
    wanted = (name_or_id or "").strip()
    if 0 < len(wanted) <= 36 and session.scalar(select(BUYERS.c.id).where(BUYERS.c.id == wanted)):
        return wanted
    found = list(session.scalars(select(BUYERS.c.id).where(func.lower(BUYERS.c.name) == wanted.lower())
                                 .order_by(BUYERS.c.created_at, BUYERS.c.id)))
    if not found:
        raise NotFound(f"No buyer is named {wanted!r} or has that id: see `servicematch buyers list`.")
    if len(found) > 1:
        raise ServiceMatchError(f"{len(found)} buyers are named {wanted!r}: give one's id instead "
                                f"({', '.join(found)}).", status_code=409)
    return found[0]
