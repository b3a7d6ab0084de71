"""Suppression lists in the console (docs/quality.md, "Suppression lists"): any operator reads the
lists; only admins import a file into one (made when new) or remove one. Each change is on the
audit log in the same transaction as the change itself: an import is all or nothing with it.

The file comes as its text in a JSON body, up to MAX_UPLOAD_CHARS characters (about 240,000
SHA-256 digests or a million phone numbers); bigger files go through `servicematch suppression
import`, which streams them.
"""

from __future__ import annotations

import io
from typing import Literal

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field

from servicematch.console import audit
from servicematch.console.auth import AdminOnly, AnyOperator, Db
from servicematch.console.paging import iso
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, ErrorBody, NotFound
from servicematch.intake.schemas import LongText, text
from servicematch.quality.suppression import ListView, SuppressionList, list_views, remove_list
from servicematch.quality.suppression_import import ImportRequest, import_list
from servicematch.routing.buyers import get_buyer

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)
# The audit log's names of these changes (console/audit.py's Action names the others).
SUPPRESSION_IMPORT = "suppression.import"
SUPPRESSION_REMOVE = "suppression.remove"
IMPORT_PATH = "/api/console/suppression-lists/import"
MAX_UPLOAD_CHARS = 16_000_000
# The body that carries that much text, JSON-escaped (each line break is two characters), and the rest.
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
NOT_FOUND = {404: {"model": ErrorBody, "description": "No such list, or no such buyer"}}
REFUSED = {409: {"model": ErrorBody, "description": "The list holds the other kind, or belongs to another buyer"}}
ListId = Path(ge=1, le=2_147_483_647)


class ConsoleSuppressionList(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int
    name: str
    kind: Literal["phone", "email"]
    # Null for a global list (no buyer is sold a lead on it); else the one buyer it applies to.
    buyerId: str | None
    buyerName: str | None
    description: str | None
    # Digests stored: a plain phone or e-mail is one; the same value hashed both ways, two.
    entryCount: int
    createdAt: str
    createdBy: str


class ConsoleSuppressionLists(BaseModel):
    items: list[ConsoleSuppressionList]


class SuppressionUpload(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # A list's name; a new name makes a new list.
    name: text(64, min_length=1)
    # A new list's kind; read from the first line of plain values when left out.
    kind: Literal["phone", "email"] | None = None
    # The buyer a new list belongs to; left out, the list is global.
    buyerId: text(36) | None = None
    # The file holds digests of this algorithm, one per line; left out, plain phones or e-mails.
    hashed: Literal["md5", "sha256"] | None = None
    description: LongText | None = None
    # Remove the list's entries first: the file becomes the list.
    replace: bool = False
    # The file's text, one value per line.
    content: str = Field(max_length=MAX_UPLOAD_CHARS)


class SuppressionImported(BaseModel):
    list: ConsoleSuppressionList
    created: bool
    lines: int
    valid: int
    added: int
    # Valid lines that added nothing: on the list already, or repeated in the file.
    unchanged: int
    bad: int
    # The first bad lines' numbers (1 is the first line).
    badLines: list[int]
    blank: int
    # Entries removed first (replace).
    removed: int
    seconds: float


class SuppressionListRemoved(BaseModel):
    id: int
    name: str
    entriesRemoved: int


def list_json(view: ListView) -> dict:
    return {"id": view.id, "name": view.name, "kind": view.kind, "buyerId": view.buyer_id,
            "buyerName": view.buyer_name, "description": view.description, "entryCount": view.entry_count,
            "createdAt": iso(view.created_at), "createdBy": view.created_by}


@router.get("/suppression-lists", response_model=ConsoleSuppressionLists,
            summary="Every suppression list: global ones first, then buyers' own")
def read_lists(caller: AnyOperator, db: Db) -> dict:
    return {"items": [list_json(view) for view in list_views(db)]}


@router.post("/suppression-lists/import", response_model=SuppressionImported, responses={**NOT_FOUND, **REFUSED},
             summary="Add a file's phones, e-mails or digests to a list, made when new (admins)")
def import_upload(body: SuppressionUpload, caller: AdminOnly, db: Db) -> dict:
    buyer_id = get_buyer(db, body.buyerId).id if body.buyerId else None
    request = ImportRequest(list_name=body.name, hashed=body.hashed, kind=body.kind, buyer_id=buyer_id,
                            description=body.description or None, replace=body.replace,
                            created_by=caller.operator.email)
    # universal newlines: \r\n and \r end lines too
    result = import_list(db.connection(), io.StringIO(body.content, newline=None), request)
    audit.record(db, action=SUPPRESSION_IMPORT, operator=caller.operator, ip=caller.ip, target=str(result.list_id),
                 detail={"name": result.list_name, "kind": result.kind, "buyerId": buyer_id, "hashed": body.hashed,
                         "created": result.created, "replace": body.replace, "lines": result.lines,
                         "added": result.added, "bad": result.bad, "removed": result.removed})
    db.commit()
    [view] = [view for view in list_views(db) if view.id == result.list_id]
    return {"list": list_json(view), "created": result.created, "lines": result.lines, "valid": result.valid,
            "added": result.added, "unchanged": result.unchanged, "bad": result.bad, "badLines": result.bad_lines,
            "blank": result.blank, "removed": result.removed, "seconds": round(result.seconds, 3)}


@router.delete("/suppression-lists/{list_id}", response_model=SuppressionListRemoved, responses=NOT_FOUND,
               summary="Remove a suppression list and every entry on it (admins)")
def delete_list(caller: AdminOnly, db: Db, list_id: int = ListId) -> dict:
    found = db.get(SuppressionList, list_id)
    if found is None:
        raise NotFound(f"No suppression list has the id {list_id}.")
    name = found.name
    removed = remove_list(db, found)
    audit.record(db, action=SUPPRESSION_REMOVE, operator=caller.operator, ip=caller.ip, target=str(list_id),
                 detail={"name": name, "entries": removed})
    db.commit()
    return {"id": list_id, "name": name, "entriesRemoved": removed}
