"""A buyer's people: the invitation's link sets the password and signs in; signing in and out, a
forgotten password, the second factor, the throttle and the e-mailed sign-in link of a locked
account; a disabled person or a switched-off buyer is out; people see only their buyer's people."""

from __future__ import annotations

from datetime import timedelta

import pyotp
from buyer_fixtures import COOKIE_DOMAIN
from fastapi.testclient import TestClient
from portal_support import PASSWORD, body
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.access.sessions import CSRF_HEADER
from servicematch.buyer.invitations import disable
from servicematch.buyer.sessions import BUYER_DEVICE, COOKIE_NAME
from servicematch.kernel.clock import utcnow
from servicematch.routing.buyers import set_active

NEW_PASSWORD = "a different horse battery staple"
STRANGER = ("203.0.113.9", 50000)


def _browser(app, address=("198.51.100.4", 50000)) -> TestClient:
    return TestClient(app, client=address)


def _sign_in(browser: TestClient, email: str, password: str = PASSWORD, **extra):
    return browser.post("/api/buyer/session", json={"email": email, "password": password, **extra})


def _actions(app, prefix: str = "buyer.") -> list[tuple[str, str]]:
    with app.state.session_factory() as session:
        return [(entry.action, entry.target) for entry in session.scalars(select(AuditEntry).order_by(AuditEntry.id))
                if entry.action.startswith(prefix)]


def test_the_invitation_link_sets_the_password_and_signs_in_once(app, make_buyer, buyer_invited, buyer_mailbox):
    buyer_id = make_buyer("Leads Direct LLC")
    person, token = buyer_invited(buyer_id, "Jane@LeadsDirect.example")
    message = buyer_mailbox.to(person.email)[-1]
    assert "Leads Direct LLC" in body(message) and "72 hours" in body(message)
    browser = _browser(app)
    assert _sign_in(browser, person.email, PASSWORD).status_code == 401  # no password before the link
    short = browser.post("/api/buyer/password", json={"token": token, "password": "too short"})
    assert short.status_code == 422 and short.json()["fields"]["password"] == "too short"

    chosen = browser.post("/api/buyer/password", json={"token": token, "password": PASSWORD})
    assert chosen.status_code == 200, chosen.text
    answer = chosen.json()
    assert answer["account"] == {"id": person.id, "email": "jane@leadsdirect.example", "totpEnabled": False}
    assert answer["buyer"] == {"id": buyer_id, "name": "Leads Direct LLC"}
    assert browser.cookies.get(COOKIE_NAME) and browser.cookies.get(BUYER_DEVICE.name)
    assert browser.get("/api/buyer/session").json()["csrfToken"] == answer["csrfToken"]
    assert browser.post("/api/buyer/password", json={"token": token, "password": NEW_PASSWORD}).status_code == 410
    assert _sign_in(_browser(app), "JANE@leadsdirect.example").status_code == 200
    assert ("buyer.password.set", person.email) in _actions(app)


def test_a_wrong_password_or_unknown_address_is_refused_alike(app, make_buyer, buyer_person):
    person = buyer_person(make_buyer())
    wrong, unknown = _sign_in(_browser(app), person.email, "not the password at all"), \
        _sign_in(_browser(app), "nobody@example.com", PASSWORD)
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert _browser(app).get("/api/buyer/session").status_code == 401
    assert ("buyer.signin.failure", person.email) in _actions(app)


def test_signing_out_ends_the_session(app, make_buyer, buyer_person):
    person = buyer_person(make_buyer())
    browser = _browser(app)
    csrf = _sign_in(browser, person.email).json()["csrfToken"]
    cookie = browser.cookies.get(COOKIE_NAME)
    assert browser.delete("/api/buyer/session").status_code == 403  # no CSRF token: still signed in
    assert browser.delete("/api/buyer/session", headers={CSRF_HEADER: csrf}).status_code == 204
    replayed = _browser(app)
    replayed.cookies.set(COOKIE_NAME, cookie, domain=COOKIE_DOMAIN, path="/api/buyer")
    assert replayed.get("/api/buyer/session").status_code == 401
    assert ("buyer.signout", person.email) in _actions(app)


def test_failures_are_throttled_per_account_apart_from_the_provider_portal(app, make_buyer, buyer_person):
    person = buyer_person(make_buyer())
    stranger = _browser(app, STRANGER)
    for _ in range(3):  # portal_signin_failures_per_account in these tests
        assert _sign_in(stranger, person.email, "a wrong guess at it").status_code == 401
    locked = _sign_in(stranger, person.email)
    assert locked.status_code == 429 and int(locked.headers["retry-after"]) > 0
    assert _sign_in(_browser(app), person.email).status_code == 429  # a new device waits too
    # Counted under the buyer portal's own action: the provider portal's sign-in is not held up.
    assert _actions(app, "portal.") == []


def test_a_locked_out_person_signs_in_by_an_emailed_link_once(app, make_buyer, buyer_person, buyer_mailbox):
    person = buyer_person(make_buyer())
    stranger = _browser(app, STRANGER)
    for _ in range(3):
        _sign_in(stranger, person.email, "a wrong guess at it")
    new_device = _browser(app)
    asked = new_device.post("/api/buyer/session/link", json={"email": person.email.upper()})
    unknown = new_device.post("/api/buyer/session/link", json={"email": "nobody@example.com"})
    assert asked.status_code == unknown.status_code == 202
    assert person.email in asked.json()["message"]
    token = buyer_mailbox.token(person.email, "sign-in-link")
    used = new_device.post("/api/buyer/session/link/use", json={"token": token})
    assert used.status_code == 200, used.text
    assert used.json()["account"]["email"] == person.email
    assert new_device.get("/api/buyer/session").status_code == 200
    assert _browser(app).post("/api/buyer/session/link/use", json={"token": token}).status_code == 410
    assert buyer_mailbox.to("nobody@example.com") == []
    actions = _actions(app)
    assert ("buyer.signin.link_sent", person.email) in actions and ("buyer.signin.link_used", person.email) in actions


def test_a_forgotten_password_is_replaced_by_a_mailed_link(app, make_buyer, buyer_person, buyer_mailbox):
    person = buyer_person(make_buyer())
    old = _browser(app)
    _sign_in(old, person.email)
    asked = _browser(app).post("/api/buyer/password/forgot", json={"email": person.email})
    unknown = _browser(app).post("/api/buyer/password/forgot", json={"email": "nobody@example.com"})
    assert asked.status_code == unknown.status_code == 202
    token = buyer_mailbox.token(person.email, "reset")
    assert "1 hour" in body(buyer_mailbox.to(person.email)[-1])
    browser = _browser(app)
    assert browser.post("/api/buyer/password", json={"token": token, "password": NEW_PASSWORD}).status_code == 200
    assert old.get("/api/buyer/session").status_code == 401  # a new password ends every other session
    assert _sign_in(_browser(app), person.email, PASSWORD).status_code == 401
    assert _sign_in(_browser(app), person.email, NEW_PASSWORD).status_code == 200
    assert buyer_mailbox.to("nobody@example.com") == []


def _turn_on_totp(browser) -> pyotp.TOTP:
    setup = browser.post("/api/buyer/account/totp")
    assert setup.status_code == 200 and setup.json()["uri"].startswith("otpauth://totp/")
    totp = pyotp.TOTP(setup.json()["secret"])
    assert browser.post("/api/buyer/account/totp/confirm", json={"code": "000000"}).status_code == 422
    assert browser.post("/api/buyer/account/totp/confirm", json={"code": totp.now()}).status_code == 204
    return totp


def test_with_totp_on_sign_in_and_a_password_link_need_the_code(app, make_buyer, buyer_browser, buyer_mailbox):
    browser = buyer_browser(make_buyer())
    email = browser.person.email
    totp = _turn_on_totp(browser)
    assert browser.get("/api/buyer/session").json()["account"]["totpEnabled"] is True
    asked = _sign_in(_browser(app), email)
    assert asked.status_code == 401 and asked.json()["totpRequired"] is True
    later = totp.at(utcnow() + timedelta(seconds=30))
    wrong = "000000" if later != "000000" else "111111"
    assert _sign_in(_browser(app), email, totp=wrong).status_code == 401
    assert _sign_in(_browser(app), email, totp=later).status_code == 200

    _browser(app).post("/api/buyer/password/forgot", json={"email": email})
    token = buyer_mailbox.token(email, "reset")
    without = _browser(app).post("/api/buyer/password", json={"token": token, "password": NEW_PASSWORD})
    assert without.status_code == 401 and without.json()["totpRequired"] is True

    refused = browser.post("/api/buyer/account/totp/disable", json={"password": "not my password at all"})
    assert refused.status_code == 422
    assert browser.post("/api/buyer/account/totp/disable", json={"password": PASSWORD}).status_code == 204
    assert _sign_in(_browser(app), email).status_code == 200
    assert [a for a, _ in _actions(app, "buyer.totp")] == ["buyer.totp.on", "buyer.totp.off"]


def test_a_disabled_person_is_out_at_once(app, make_buyer, buyer_browser):
    browser = buyer_browser(make_buyer())
    with app.state.session_factory() as session:
        disable(session, browser.buyer_id, browser.person.id)
        session.commit()
    assert browser.get("/api/buyer/session").status_code == 401
    assert _sign_in(_browser(app), browser.person.email).status_code == 401


def test_a_buyer_switched_off_by_an_operator_lets_none_of_its_people_in(app, make_buyer, buyer_browser):
    browser = buyer_browser(make_buyer())
    with app.state.session_factory() as session:
        set_active(session, browser.buyer_id, False)
        session.commit()
    assert browser.get("/api/buyer/session").status_code == 401
    refused = _sign_in(_browser(app), browser.person.email)
    assert refused.status_code == 401 and "switched" in refused.json()["error"]
    assert ("buyer.signin.success", browser.person.email) not in _actions(app)


def test_people_see_only_their_own_buyers_people(app, make_buyer, buyer_browser, buyer_person, buyer_invited):
    ours, theirs = make_buyer(), make_buyer()
    browser = buyer_browser(ours)
    invited, _token = buyer_invited(ours)
    stranger = buyer_person(theirs)
    people = browser.get("/api/buyer/people").json()["items"]
    assert {p["email"]: p["hasPassword"] for p in people} == {browser.person.email: True, invited.email: False}
    assert stranger.email not in browser.get("/api/buyer/people").text
    assert set(people[0]) == {"id", "email", "active", "hasPassword", "createdAt"}


def test_sign_in_input_is_bounded(app):
    browser = _browser(app)
    for payload in ({"email": "x" * 255 + "@example.com", "password": PASSWORD}, {"email": "a@b.co", "password": ""},
                    {"email": "a@b.co", "password": "p" * 257}, {"email": "a@b.co", "password": PASSWORD,
                                                                  "totp": "1" * 13}):
        answer = browser.post("/api/buyer/session", json=payload)
        assert answer.status_code == 422 and answer.json()["fields"], payload
    assert browser.post("/api/buyer/password", json={"token": "t" * 201, "password": PASSWORD}).status_code == 422
    assert browser.post("/api/buyer/password", json={"token": "no-such-token", "password": PASSWORD}).status_code == 410


def test_mail_goes_to_the_buyer_portals_pages(settings):
    from servicematch.buyer import mail

    subject, text = mail.invitation(settings, buyer_name="Leads Direct LLC", token="abc")
    assert "buyer portal" in subject and "https://servicematch.example/buyer/welcome#abc" in text
    assert "/buyer/reset#abc" in mail.password_link(settings, token="abc", first=False)[1]
    assert "/buyer/sign-in-link#abc" in mail.signin_link(settings, token="abc")[1]
