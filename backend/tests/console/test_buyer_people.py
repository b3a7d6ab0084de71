"""A buyer's people in the console: any operator reads them, admins invite (the link mailed),
send the link again and disable; each change audited; nothing of one buyer reaches another."""

from __future__ import annotations

from pathlib import Path

import buyer_fixtures
import pytest
from buyer_fixtures import buyer_settings
from fastapi.testclient import TestClient
from portal_support import PASSWORD, body
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.buyer.models import BuyerAccount

# The buyer fixtures these tests use (backend/tests/buyer_fixtures.py).
make_buyer, buyer_person, buyer_browser = buyer_fixtures.make_buyer, buyer_fixtures.buyer_person, \
    buyer_fixtures.buyer_browser
buyer_mailbox = buyer_fixtures.buyer_mailbox


@pytest.fixture
def settings(database_url: str, static_dir: Path, tmp_path: Path):
    # The buyer portal's settings: a data key, and mail kept in the test's own mailbox.
    return buyer_settings(database_url, static_dir, tmp_path)


def _people(admin, buyer_id: str) -> list[dict]:
    answer = admin.get(f"/api/console/buyers/{buyer_id}/people")
    assert answer.status_code == 200, answer.text
    return answer.json()["items"]


def _invite(admin, buyer_id: str, email: str):
    return admin.post(f"/api/console/buyers/{buyer_id}/people", json={"email": email})


def _audit(app) -> list[tuple[str, str, str]]:
    with app.state.session_factory() as session:
        return [(entry.action, entry.target, entry.operator_email) for entry in
                session.scalars(select(AuditEntry).where(AuditEntry.action.like("buyer.person.%"))
                                .order_by(AuditEntry.id))]


def test_an_admin_invites_people_and_the_link_signs_them_in(app, admin, make_buyer, buyer_mailbox):
    buyer_id = make_buyer("Leads Direct LLC")
    invited = _invite(admin, buyer_id, "Jane@LeadsDirect.example")
    assert invited.status_code == 201, invited.text
    person = invited.json()["person"]
    assert invited.json()["email"] == {"sent": True, "error": None}
    assert (person["email"], person["active"], person["hasPassword"]) == ("jane@leadsdirect.example", True, False)
    assert person["invitedBy"].startswith("admin-")
    assert _invite(admin, buyer_id, "sam@leadsdirect.example").status_code == 201
    assert [p["email"] for p in _people(admin, buyer_id)] == ["jane@leadsdirect.example", "sam@leadsdirect.example"]
    assert "Leads Direct LLC" in body(buyer_mailbox.to("jane@leadsdirect.example")[-1])

    token = buyer_mailbox.token("jane@leadsdirect.example", "welcome")
    chosen = TestClient(app).post("/api/buyer/password", json={"token": token, "password": PASSWORD})
    assert chosen.status_code == 200 and chosen.json()["buyer"]["id"] == buyer_id
    assert _people(admin, buyer_id)[0]["hasPassword"] is True
    assert [(a, t) for a, t, _ in _audit(app)] == [("buyer.person.invite", buyer_id)] * 2


def test_a_taken_or_bad_address_is_refused(admin, make_buyer, buyer_mailbox):
    ours, theirs = make_buyer(), make_buyer()
    assert _invite(admin, ours, "jo@example.com").status_code == 201
    taken = _invite(admin, theirs, "JO@example.com")
    assert taken.status_code == 409 and taken.json()["fields"] == {"email": "taken"}
    for bad in ("not an address", "", "x" * 250 + "@example.com"):
        answer = _invite(admin, ours, bad)
        assert answer.status_code == 422 and "email" in answer.json()["fields"], bad
    assert admin.post(f"/api/console/buyers/{ours}/people", json={"email": "a@b.co", "role": "x"}).status_code == 422
    assert _people(admin, theirs) == [] and len(_people(admin, ours)) == 1
    assert len(buyer_mailbox.to("jo@example.com")) == 1


def test_an_unknown_buyer_or_another_buyers_person_is_404(admin, make_buyer, buyer_person):
    ours, theirs = make_buyer(), make_buyer()
    stranger = buyer_person(theirs)
    assert admin.get("/api/console/buyers/no-such-buyer/people").status_code == 404
    assert _invite(admin, "no-such-buyer", "x@example.com").status_code == 404
    for action in ("disable", "invite-again"):
        answer = admin.post(f"/api/console/buyers/{ours}/people/{stranger.id}/{action}")
        assert answer.status_code == 404, action
    assert _people(admin, theirs)[0]["active"] is True
    assert admin.get(f"/api/console/buyers/{'x' * 37}/people").status_code == 422


def test_disabling_signs_the_person_out_and_inviting_again_lets_it_back(app, admin, make_buyer, buyer_browser,
                                                                       buyer_mailbox):
    buyer_id = make_buyer()
    browser = buyer_browser(buyer_id)
    person = browser.person
    assert admin.post(f"/api/console/buyers/{buyer_id}/people/{person.id}/disable").status_code == 204
    assert browser.get("/api/buyer/session").status_code == 401
    signed_in = TestClient(app).post("/api/buyer/session", json={"email": person.email, "password": PASSWORD})
    assert signed_in.status_code == 401
    assert _people(admin, buyer_id)[0]["active"] is False

    assert admin.post(f"/api/console/buyers/{buyer_id}/people/{person.id}/invite-again").status_code == 204
    assert _people(admin, buyer_id)[0] | {"createdAt": "", "invitedBy": ""} == {
        "id": person.id, "email": person.email, "active": True, "hasPassword": False, "createdAt": "",
        "invitedBy": ""}
    # The old password no longer works: the link sets a new one.
    old = TestClient(app).post("/api/buyer/session", json={"email": person.email, "password": PASSWORD})
    assert old.status_code == 401
    token = buyer_mailbox.token(person.email, "welcome")
    chosen = TestClient(app).post("/api/buyer/password", json={"token": token, "password": "a brand new password"})
    assert chosen.status_code == 200
    assert [a for a, _, _ in _audit(app)] == ["buyer.person.disable", "buyer.person.invite_again"]


def test_inviting_again_voids_the_older_link_and_is_refused_once_a_password_is_set(app, admin, make_buyer,
                                                                                  buyer_mailbox):
    buyer_id = make_buyer()
    person_id = _invite(admin, buyer_id, "late@example.com").json()["person"]["id"]
    first = buyer_mailbox.token("late@example.com", "welcome")
    assert admin.post(f"/api/console/buyers/{buyer_id}/people/{person_id}/invite-again").status_code == 204
    second = buyer_mailbox.token("late@example.com", "welcome", count=2)
    assert first != second
    assert TestClient(app).post("/api/buyer/password", json={"token": first, "password": PASSWORD}).status_code == 410
    assert TestClient(app).post("/api/buyer/password", json={"token": second, "password": PASSWORD}).status_code == 200
    again = admin.post(f"/api/console/buyers/{buyer_id}/people/{person_id}/invite-again")
    assert again.status_code == 409 and "password already" in again.json()["error"]


def test_an_analyst_reads_but_may_not_change(app, client, add_operator, make_buyer, buyer_person):
    from console_api_support import sign_in

    buyer_id = make_buyer()
    person = buyer_person(buyer_id)
    sign_in(client, add_operator("analyst"))
    assert [p["email"] for p in _people(client, buyer_id)] == [person.email]
    assert _invite(client, buyer_id, "x@example.com").status_code == 403
    for action in ("disable", "invite-again"):
        assert client.post(f"/api/console/buyers/{buyer_id}/people/{person.id}/{action}").status_code == 403
    with app.state.session_factory() as session:
        assert session.scalars(select(BuyerAccount.active)).all() == [True]
    assert _audit(app) == []


def test_a_change_needs_the_consoles_session_and_csrf_token(app, admin, make_buyer, buyer_browser):
    buyer_id = make_buyer()
    without = admin.post(f"/api/console/buyers/{buyer_id}/people", json={"email": "x@example.com"},
                         headers={"X-CSRF-Token": ""})
    assert without.status_code == 403
    # A buyer's own person has no console session: the console's buyer pages stay shut to it.
    browser = buyer_browser(buyer_id)
    assert browser.get(f"/api/console/buyers/{buyer_id}/people").status_code == 401
    assert browser.post(f"/api/console/buyers/{buyer_id}/people", json={"email": "x@example.com"}).status_code == 401
    assert [p["email"] for p in _people(admin, buyer_id)] == [browser.person.email]


def test_inviting_an_address_twice_to_the_same_buyer_says_so(admin, make_buyer):
    buyer_id = make_buyer()
    assert _invite(admin, buyer_id, "twice@example.com").status_code == 201
    again = _invite(admin, buyer_id, "twice@example.com")
    assert again.status_code == 409 and "of this buyer" in again.json()["error"]
    assert len(_people(admin, buyer_id)) == 1
