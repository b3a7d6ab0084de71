"""API keys: made by a person in the portal, shown once, stored only as a hash, listed without the
key, revoked at once, never in a log; one buyer's people cannot touch another's keys."""

from __future__ import annotations

import logging

from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.buyer.auth import KEY_PREFIX, key_hash
from servicematch.buyer.keys import MAX_LIVE_KEYS
from servicematch.buyer.models import BuyerApiKey


def _make(browser, name="CRM production"):
    answer = browser.post("/api/buyer/keys", json={"name": name})
    assert answer.status_code == 201, answer.text
    return answer


def test_a_key_is_shown_once_and_stored_only_as_its_hash(app, make_buyer, buyer_browser):
    browser = buyer_browser(make_buyer())
    answer = _make(browser)
    made = answer.json()
    secret = made["secret"]
    assert secret.startswith(KEY_PREFIX) and len(secret) >= 40
    assert answer.headers["cache-control"] == "no-store"
    assert made["key"]["name"] == "CRM production"
    assert made["key"]["createdBy"] == browser.person.email
    assert secret.startswith(made["key"]["prefix"]) and len(made["key"]["prefix"]) == 8
    assert made["key"]["lastUsedAt"] is None and made["key"]["revokedAt"] is None
    with app.state.session_factory() as session:
        row = session.scalars(select(BuyerApiKey)).one()
        stored = [str(value) for value in (row.name, row.prefix, row.key_hash, row.created_by)]
        assert row.key_hash == key_hash(secret)
        assert all(secret not in value for value in stored)
        audit = session.scalars(select(AuditEntry).where(AuditEntry.action == "buyer.key.create")).one()
        assert audit.target == browser.buyer_id and audit.operator_email == browser.person.email
        assert secret not in str(audit.detail) and audit.detail["prefix"] == made["key"]["prefix"]
    listed = browser.get("/api/buyer/keys").json()["items"]
    assert [key["id"] for key in listed] == [made["key"]["id"]]
    assert secret not in browser.get("/api/buyer/keys").text


# A key is known (403: a person's route) or not (401) on any route behind buyer/auth.py; the
# session's routes are here whatever else the API holds.
KNOWN = "/api/buyer/session"


def test_the_key_is_known_and_its_last_use_recorded(app, make_buyer, buyer_browser, key_client):
    browser = buyer_browser(make_buyer())
    secret = _make(browser).json()["secret"]
    system = key_client(browser.buyer_id, secret)
    assert system.get(KNOWN).status_code == 403
    assert browser.get("/api/buyer/keys").json()["items"][0]["lastUsedAt"] is not None


def test_a_revoked_key_is_refused_at_once(make_buyer, buyer_browser, key_client):
    browser = buyer_browser(make_buyer())
    made = _make(browser).json()
    system = key_client(browser.buyer_id, made["secret"])
    assert system.get(KNOWN).status_code == 403
    assert browser.delete(f"/api/buyer/keys/{made['key']['id']}").status_code == 204
    refused = system.get(KNOWN)
    assert refused.status_code == 401 and made["secret"] not in refused.text
    assert browser.get("/api/buyer/keys").json()["items"][0]["revokedAt"] is not None
    # Revoking again changes nothing; the key stays listed, revoked.
    assert browser.delete(f"/api/buyer/keys/{made['key']['id']}").status_code == 204


def test_another_buyers_key_answers_404_with_nothing_in_it(make_buyer, buyer_browser, key_client):
    ours, theirs = buyer_browser(make_buyer()), buyer_browser(make_buyer())
    their_key = _make(theirs).json()
    answer = ours.delete(f"/api/buyer/keys/{their_key['key']['id']}")
    assert answer.status_code == 404 and answer.content == b""
    assert ours.delete("/api/buyer/keys/no-such-key").status_code == 404
    assert ours.get("/api/buyer/keys").json()["items"] == []
    assert theirs.get("/api/buyer/keys").json()["items"][0]["revokedAt"] is None
    assert key_client(theirs.buyer_id, their_key["secret"]).get(KNOWN).status_code == 403


def test_a_key_cannot_make_list_or_revoke_keys(make_buyer, buyer_browser, key_client):
    browser = buyer_browser(make_buyer())
    made = _make(browser).json()
    system = key_client(browser.buyer_id, made["secret"])
    for method, path, body in (("GET", "/api/buyer/keys", None), ("POST", "/api/buyer/keys", {"name": "mine"}),
                               ("DELETE", f"/api/buyer/keys/{made['key']['id']}", None),
                               ("GET", "/api/buyer/v1/keys", None)):
        answer = system.request(method, path, json=body)
        assert answer.status_code in (403, 404, 405), (method, path, answer.status_code)
        assert answer.status_code != 200
    assert browser.get("/api/buyer/keys").json()["items"][0]["revokedAt"] is None
    assert len(browser.get("/api/buyer/keys").json()["items"]) == 1


def test_a_key_needs_a_name_of_bounded_length(make_buyer, buyer_browser):
    browser = buyer_browser(make_buyer())
    for name in ("", "   ", "x" * 101):
        answer = browser.post("/api/buyer/keys", json={"name": name})
        assert answer.status_code == 422, name
        assert "name" in answer.json()["fields"]
    assert browser.post("/api/buyer/keys", json={}).status_code == 422
    assert browser.get("/api/buyer/keys").json()["items"] == []


def test_live_keys_are_limited_but_revoked_ones_do_not_count(make_buyer, buyer_browser, buyer_key):
    browser = buyer_browser(make_buyer())
    for n in range(MAX_LIVE_KEYS - 1):
        buyer_key(browser.buyer_id, f"key {n}")
    last = _make(browser, "the last").json()
    refused = browser.post("/api/buyer/keys", json={"name": "one too many"})
    assert refused.status_code == 409 and "revoke" in refused.json()["error"]
    browser.delete(f"/api/buyer/keys/{last['key']['id']}")
    _make(browser, "in its place")


def test_keys_never_reach_the_logs(make_buyer, buyer_browser, key_client, caplog):
    caplog.set_level(logging.DEBUG)
    browser = buyer_browser(make_buyer())
    made = _make(browser).json()
    system = key_client(browser.buyer_id, made["secret"])
    system.get(KNOWN)
    browser.delete(f"/api/buyer/keys/{made['key']['id']}")
    system.get(KNOWN)
    assert made["secret"] not in caplog.text
