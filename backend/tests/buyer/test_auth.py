"""Who may call the buyer portal and API (buyer/auth.py): a person's session, with its CSRF token
on every change, or a live key of an active buyer; each sees only its own buyer. No other kind of
session opens it, and its session opens nothing else."""

from __future__ import annotations

import re
import uuid

import pytest
from buyer_fixtures import COOKIE_DOMAIN
from fastapi import APIRouter
from fastapi.testclient import TestClient
from portal_fixtures import invited, mailbox, provider  # noqa: F401 (fixtures: a provider's signed-in browser)
from portal_support import PASSWORD
from sqlalchemy import update

from servicematch.access.sessions import CSRF_HEADER
from servicematch.buyer.auth import SignedInBuyer
from servicematch.buyer.models import BuyerApiKey
from servicematch.buyer.sessions import COOKIE_NAME, KEY_API_PREFIX
from servicematch.console import accounts as operator_accounts
from servicematch.kernel.clock import utcnow
from servicematch.portal.sessions import COOKIE_NAME as PROVIDER_COOKIE
from servicematch.routing.buyers import set_active

WHO = f"{KEY_API_PREFIX}/test-who-am-i"


@pytest.fixture
def who_am_i(app):
    """A route behind `current_buyer` answering whose data the caller reaches, as every buyer route
    filters by it; GET and POST, since only a change needs the CSRF token."""
    probe = APIRouter()

    @probe.api_route(WHO, methods=["GET", "POST"])
    def who(caller: SignedInBuyer) -> dict:
        return {"buyer": caller.buyer.id, "who": caller.who, "person": caller.account is not None}

    app.include_router(probe)
    # Ahead of the site's catch-all, which answers any other path.
    app.router.routes.insert(0, app.router.routes.pop())
    return WHO


def test_a_session_and_a_key_each_reach_only_their_own_buyer(make_buyer, buyer_browser, key_client, who_am_i):
    ours, theirs = make_buyer(), make_buyer()
    browser = buyer_browser(ours)
    assert browser.get(who_am_i).json() == {"buyer": ours, "who": browser.person.email, "person": True}
    assert key_client(ours).get(who_am_i).json() == {"buyer": ours, "who": "key:integration", "person": False}
    assert key_client(theirs).get(who_am_i).json()["buyer"] == theirs
    assert key_client(ours).post(who_am_i).json()["buyer"] == ours  # a key needs no CSRF token


def test_a_key_wins_over_a_cookie_so_a_browser_cannot_mix_them(make_buyer, buyer_browser, buyer_key, who_am_i):
    ours, theirs = make_buyer(), make_buyer()
    browser = buyer_browser(ours)
    mixed = browser.get(who_am_i, headers={"Authorization": f"Bearer {buyer_key(theirs)}"})
    assert mixed.json() == {"buyer": theirs, "who": "key:integration", "person": False}
    refused = browser.get(who_am_i, headers={"Authorization": "Bearer smk_not-a-real-key"})
    assert refused.status_code == 401


def test_a_revoked_key_an_unknown_one_or_a_switched_off_buyers_is_refused(app, make_buyer, buyer_key, who_am_i):
    buyer_id = make_buyer()
    revoked, live = buyer_key(buyer_id, "old"), buyer_key(buyer_id, "new")
    with app.state.session_factory() as session:
        session.execute(update(BuyerApiKey).where(BuyerApiKey.name == "old").values(revoked_at=utcnow()))
        session.commit()
    for key in (revoked, "smk_" + "A" * 43, "whsec_abc", "smk_" + "x" * 300, live[:-1]):
        answer = TestClient(app, headers={"Authorization": f"Bearer {key}"}).get(who_am_i)
        assert answer.status_code == 401 and key not in answer.text, key
    assert TestClient(app, headers={"Authorization": f"Bearer {live}"}).get(who_am_i).status_code == 200
    with app.state.session_factory() as session:
        set_active(session, buyer_id, False)
        session.commit()
    assert TestClient(app, headers={"Authorization": f"Bearer {live}"}).get(who_am_i).status_code == 401


def test_a_key_on_a_persons_route_is_403(make_buyer, key_client):
    system = key_client(make_buyer())
    for method, path in (("GET", "/api/buyer/session"), ("GET", "/api/buyer/people"), ("GET", "/api/buyer/keys"),
                         ("POST", "/api/buyer/account/totp")):
        answer = system.request(method, path)
        assert answer.status_code == 403, (method, path)
        assert "API key" in answer.json()["error"]


def test_a_change_without_the_csrf_token_is_403_and_changes_nothing(make_buyer, buyer_browser, who_am_i):
    browser = buyer_browser(make_buyer())
    for headers in ({CSRF_HEADER: ""}, {CSRF_HEADER: "0" * 64}, {CSRF_HEADER: browser.csrf[:-1]}):
        assert browser.post("/api/buyer/keys", json={"name": "sneaky"}, headers=headers).status_code == 403
        assert browser.post(who_am_i, headers=headers).status_code == 403
        assert browser.delete("/api/buyer/session", headers=headers).status_code == 403
    assert browser.get("/api/buyer/keys").json()["items"] == []
    assert browser.get(who_am_i).status_code == 200  # reading needs none
    assert browser.get("/api/buyer/session").status_code == 200


BEFORE_SIGN_IN = {("POST", "/api/buyer/session"), ("POST", "/api/buyer/password"),
                  ("POST", "/api/buyer/password/forgot"), ("POST", "/api/buyer/session/link"),
                  ("POST", "/api/buyer/session/link/use")}


def _state_changing_routes(app) -> list[tuple[str, str]]:
    """Every buyer portal and API operation but reads and the calls made before signing in, from the schema."""
    paths = app.openapi()["paths"].items()
    return sorted((method.upper(), re.sub(r"\{[^}]+\}", "x", path)) for path, operations in paths
                  if path.startswith("/api/buyer/") for method in operations
                  if method != "get" and (method.upper(), path) not in BEFORE_SIGN_IN)


def test_every_state_changing_call_needs_the_session_and_its_csrf_token(app, make_buyer, buyer_browser):
    browser = buyer_browser(make_buyer())
    routes = _state_changing_routes(app)
    assert len(routes) >= 6, routes  # the walk sees the routes (keys, TOTP, sign-out)
    anonymous = TestClient(app)
    for method, path in routes:
        assert anonymous.request(method, path, json={}).status_code == 401, (method, path)
        without = browser.request(method, path, json={}, headers={CSRF_HEADER: ""})
        assert without.status_code == 403, (method, path, without.text)
        forged = browser.request(method, path, json={}, headers={CSRF_HEADER: "0" * 64})
        assert forged.status_code == 403, (method, path)
    assert browser.get("/api/buyer/session").status_code == 200  # still signed in: nothing changed
    assert browser.get("/api/buyer/keys").json()["items"] == []


def test_without_a_session_or_key_everything_is_401(app, who_am_i):
    anonymous = TestClient(app)
    for method, path in (("GET", who_am_i), ("POST", who_am_i), ("GET", "/api/buyer/session"),
                         ("GET", "/api/buyer/keys"), ("POST", "/api/buyer/keys"), ("GET", "/api/buyer/people")):
        assert anonymous.request(method, path, json={"name": "x"}).status_code == 401, (method, path)
    forged = TestClient(app)
    forged.cookies.set(COOKIE_NAME, "x" * 43, domain=COOKIE_DOMAIN, path="/api/buyer")
    assert forged.get(who_am_i).status_code == 401


def test_a_providers_session_never_opens_the_buyer_portal_nor_the_reverse(app, provider,  # noqa: F811
                                                                         make_buyer, buyer_browser, who_am_i):
    pro = provider()
    assert pro.get("/session").status_code == 200
    for path in (who_am_i, "/api/buyer/session", "/api/buyer/keys"):
        assert pro.http.get(path).status_code == 401, path
    # The same token under the other portal's cookie name opens nothing either.
    stolen = pro.http.cookies.get(PROVIDER_COOKIE)
    swapped = TestClient(app)
    swapped.cookies.set(COOKIE_NAME, stolen, domain=COOKIE_DOMAIN, path="/api/buyer")
    assert swapped.get(who_am_i).status_code == 401
    browser = buyer_browser(make_buyer())
    buyer_token = browser.cookies.get(COOKIE_NAME)
    reverse = TestClient(app)
    reverse.cookies.set(PROVIDER_COOKIE, buyer_token, domain=COOKIE_DOMAIN, path="/api/pro")
    assert reverse.get("/api/pro/session").status_code == 401
    assert browser.get("/api/pro/session").status_code == 401


def test_an_operators_session_never_opens_the_buyer_portal(app, client, who_am_i):
    email = f"admin-{uuid.uuid4().hex[:8]}@example.com"
    with app.state.session_factory() as session:
        operator_accounts.add_operator(session, email=email, role="admin", password=PASSWORD)
        session.commit()
    signed_in = client.post("/api/console/session", json={"email": email, "password": PASSWORD})
    assert signed_in.status_code == 200
    csrf = signed_in.json()["csrfToken"]
    for method, path in (("GET", who_am_i), ("GET", "/api/buyer/session"), ("POST", "/api/buyer/keys")):
        answer = client.request(method, path, json={"name": "x"}, headers={CSRF_HEADER: csrf})
        assert answer.status_code == 401, (method, path)
    assert client.get("/api/console/session").status_code == 200  # signed in all along, to the console only
