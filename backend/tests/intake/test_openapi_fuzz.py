"""Schemathesis against /openapi.json, in process, with every check it has (`--checks all`):
no 5xx, answers within the schema, wrong methods refused, bad data refused, auth honoured.
The whole schema is covered, the admin API included (with its token) and the console's
(signed in as an admin, with the session's CSRF token)."""

from __future__ import annotations

import os
import uuid
from urllib.parse import unquote

import pytest
import schemathesis
from argon2 import PasswordHasher, profiles
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import load_all_checks
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from servicematch.access import passwords
from servicematch.console import accounts
from servicematch.console.sessions import COOKIE_NAME, CSRF_HEADER
from servicematch.inbound.validation import has_control_characters
from servicematch.schema.registry import metadata

load_all_checks()
# Examples per operation and generation mode. Few by default, so that each mode of the whole schema
# stays a matter of seconds in `make test`: about 90 operations, and each example costs some 20 ms
# to generate and call, most of it the generating. Each run draws new examples (no example
# database), so runs add up. SERVICEMATCH_FUZZ_EXAMPLES sets how many, with the same strategies
# and checks: 12 as before 2026-11-28, 100 or more for a thorough search after changing a model or
# a route.
EXAMPLES = int(os.environ.get("SERVICEMATCH_FUZZ_EXAMPLES", "5"))
ADMIN_TOKEN = "fuzz-admin-token-0123456789abcdef0123"
AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
# Operations whose bodies are judged by more than their schema can say, so a schema-valid body
# may rightly be refused: schemathesis's positive_data_acceptance is left out there, and only there.
BEYOND_THE_SCHEMA = {
    # services must be catalogue ids; the area needs states or ZIP codes, a radius needs ZIP codes
    "POST /api/admin/providers": "catalogue", "PATCH /api/admin/providers/{provider_id}": "catalogue",
    # a stop link's token must carry a valid signature
    "POST /api/privacy/stop": "signed token", "POST /api/privacy/stop/preview": "signed token",
    "POST /api/privacy/one-click": "signed token",
    # a sign-in link's one-time token must be one that was mailed
    "POST /api/pro/session/link/use": "one-time token", "POST /api/console/session/link/use": "one-time token",
    "POST /api/buyer/session/link/use": "one-time token", "POST /api/buyer/password": "one-time token",
    # either an e-mail address or a phone number (the schema has both optional)
    "POST /api/privacy/requests": "e-mail or phone",
    # the same catalogue rules as the admin API's
    "POST /api/console/providers": "catalogue", "PATCH /api/console/providers/{provider_id}": "catalogue",
    # a buyer's terms: a name, http(s) URLs, a price unless it has a ping URL, known states,
    # five-digit ZIPs, readable hours, a whsec_ secret (routing/buyers.py check_terms)
    "POST /api/console/buyers": "buyer terms", "PATCH /api/console/buyers/{buyer_id}": "buyer terms",
    # a page's cursor must be one the previous page gave (its form alone is in the schema); the
    # lead list's score bounds (scoreMin at most scoreMax) bind its export too
    "GET /api/console/leads": "cursor and score range", "GET /api/console/leads.csv": "score range",
    "GET /api/console/deliveries": "cursor",
    "GET /api/console/returns": "cursor", "GET /api/console/held-leads": "cursor",
    # a list's name pattern and each line of its content are checked as the CLI checks a file
    "POST /api/console/suppression-lists/import": "list name and entries",
    "GET /api/console/accounts": "cursor", "GET /api/console/payments": "cursor",
    # a month is a real one (YYYY-MM, from 2000 on)
    "GET /api/console/invoices": "month",
    # an adjustment moves at least one cent; it and a reversal say why in more than blanks
    "POST /api/console/accounts/{accountId}/adjustments": "not zero, words in the note",
    "POST /api/console/entries/{entryId}/reverse": "words in the note",
    # a dashboard's range runs forwards and spans at most 366 days
    "GET /api/console/dashboard": "date range", "GET /api/console/conversion": "date range",
    "GET /api/console/quality/measures": "date range",
    "GET /api/console/money": "date range",
    # an application to join: catalogue services, real US ZIP codes and phone numbers, a licence where needed
    "POST /api/partner/applications": "catalogue", "POST /api/console/providers/invite": "catalogue",
    # a one-time link's token must be one the server mailed, unused and unexpired
    "POST /api/partner/applications/confirm": "one-time token", "POST /api/pro/password": "one-time token",
    # a credit's or a return's denial, a held lead's rejection and a payment marked by hand need a
    # note of more than blanks
    "POST /api/console/credits/{credit_id}/deny": "words in the note",
    "POST /api/console/returns/{return_id}/deny": "words in the note",
    "POST /api/console/held-leads/{lead_id}/reject": "words in the note",
    "POST /api/console/invoices/{invoice_id}/mark-paid": "words in the note",
    # a review link's token must carry a valid signature and name an accepted lead
    "POST /api/reviews/lookup": "signed token", "POST /api/reviews": "signed token",
}
ADMIN_PASSWORD = "fuzz admin password 0123456789"
SIGN_OUT = "DELETE /api/console/session"


@pytest.fixture
def settings_for_fuzz(settings):
    # Sign-in failures are not throttled here: fuzzed sign-ins come by the hundred from one address.
    return settings.model_copy(update={"admin_token": ADMIN_TOKEN, "console_signin_failures_per_account": 10**9,
                                       "console_signin_failures_per_address": 10**9})


@pytest.fixture
def fuzzed_app(settings_for_fuzz):
    from servicematch.app import create_app
    from servicematch.inbound.ratelimit import SlidingWindowLimiter

    application = create_app(settings_for_fuzz)
    # Every limit lifted, the app's own and those routers build with fixed limits: thousands of
    # requests come from one address in seconds.
    for limiter in application.state._state.values():
        if isinstance(limiter, SlidingWindowLimiter):
            limiter.limit = 10**9
    yield application
    # What the fuzzing stored (failed sign-ins above all) must not throttle the tests after it.
    with application.state.engine.begin() as connection:
        for table in reversed(metadata.sorted_tables):
            connection.execute(table.delete())
    application.state.engine.dispose()


@pytest.fixture
def signed_in(fuzzed_app, monkeypatch):
    """Headers of an admin signed in to the console, next to the admin API's token; call
    `signed_in.again()` after the session was ended."""
    monkeypatch.setattr(passwords, "_hasher", PasswordHasher.from_parameters(profiles.CHEAPEST))
    email = f"fuzz-admin-{uuid.uuid4().hex[:8]}@example.com"
    with fuzzed_app.state.session_factory() as session:
        accounts.add_operator(session, email=email, role="admin", password=ADMIN_PASSWORD)
        session.commit()
    headers = SignedIn(fuzzed_app, email)
    headers.again()
    return headers


class SignedIn(dict):
    def __init__(self, app, email: str) -> None:
        super().__init__(AUTH)
        self.app, self.email = app, email

    def again(self) -> None:
        with TestClient(self.app) as client:
            answer = client.post("/api/console/session", json={"email": self.email, "password": ADMIN_PASSWORD})
            assert answer.status_code == 200, answer.text
            self.update({"Cookie": f"{COOKIE_NAME}={client.cookies[COOKIE_NAME]}",
                         CSRF_HEADER: answer.json()["csrfToken"]})


def operations(app, mode: GenerationMode = GenerationMode.POSITIVE) -> list:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    if mode is GenerationMode.POSITIVE:
        schema.hook("filter_path_parameters")(as_the_server_reads_them)
    return [result.ok() for result in schema.get_all_operations()]


def as_the_server_reads_them(context, path_parameters) -> bool:
    """Schemathesis sends a generated path value's "%XX" as it stands (it unquotes before
    quoting, to stay idempotent), so a value that matches the one-line pattern, such as "a%7F",
    reaches the server as "a" and DEL, which the pattern excludes: such a request is not the
    schema-valid one it is taken for, and the 422 it rightly gets is no failure. Dropped here, in
    conforming mode only, by the same rule the server applies (filter_path_parameters hook)."""
    return not any(isinstance(value, str) and has_control_characters(unquote(value))
                   for value in (path_parameters or {}).values())


def test_the_schema_covers_intake_admin_and_console(fuzzed_app):
    labels = {operation.label for operation in operations(fuzzed_app)}
    assert {"POST /api/validate", "POST /api/submit-form", "POST /api/call-submit",
            "GET /api/admin/providers", "PATCH /api/admin/providers/{provider_id}", "GET /api/console/leads",
            "POST /api/console/deliveries/retry", "GET /api/console/leads.csv", SIGN_OUT} <= labels


# Each generation mode: conforming requests, then requests built to break the schema.
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_operation_passes_every_check(fuzzed_app, signed_in, mode):
    failed: dict[str, str] = {}
    for operation in operations(fuzzed_app, mode):

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
        def call(case) -> None:
            # No checks named: schemathesis runs all of its checks.
            excluded = [positive_data_acceptance] if case.operation.label in BEYOND_THE_SCHEMA else []
            # A generous timeout: the first address lookup loads the ZIP directory, and on a
            # loaded machine that outlasts the default and would read as a flaky failure.
            case.call_and_validate(headers=dict(signed_in), excluded_checks=excluded, timeout=120)
            if case.operation.label == SIGN_OUT:
                signed_in.again()

        try:
            call()
        except Unsatisfiable:
            # Nothing in this operation can be made invalid (no body, only free-form strings).
            assert mode is GenerationMode.NEGATIVE, operation.label
        except BaseExceptionGroup as exc:  # every operation is tried, then all failures are reported together
            failed[operation.label] = str(exc)[:3000]
    assert not failed, "\n\n".join(f"{label}: {text}" for label, text in failed.items())
