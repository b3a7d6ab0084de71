"""`servicematch buyers invite --buyer NAME_OR_ID --email E`: a buyer named exactly or by id, one
more person for it, the link mailed (to the local mailbox without SMTP); a clear refusal for an
unknown or ambiguous buyer, a bad or taken address."""

from __future__ import annotations

from datetime import timedelta

import pytest
from cli_support import shell_cli
from fastapi.testclient import TestClient
from portal_support import PASSWORD, body
from sqlalchemy import select

from servicematch.buyer.models import BuyerAccount, BuyerToken


@pytest.fixture
def cli(monkeypatch, settings):
    with shell_cli(monkeypatch, settings, env={"MAIL_DIR": str(settings.mail_dir),
                                               "SITE_ORIGIN": settings.site_origin}, unset=("SMTP_HOST",)) as run:
        yield run


def _people(app, buyer_id: str) -> list[BuyerAccount]:
    with app.state.session_factory() as session:
        return list(session.scalars(select(BuyerAccount).where(BuyerAccount.buyer_id == buyer_id)
                                    .order_by(BuyerAccount.created_at)))


def test_the_cli_invites_a_person_of_a_buyer_named_exactly(cli, app, make_buyer, buyer_mailbox):
    buyer_id = make_buyer("Leads Direct LLC")
    result = cli("buyers", "invite", "--buyer", "leads direct llc", "--email", "Jane@LeadsDirect.example")
    assert result.exit_code == 0, result.output
    assert buyer_id in result.output and "Leads Direct LLC" in result.output
    assert "72 hours" in result.output and "servicematch mail list" in result.output
    [person] = _people(app, buyer_id)
    assert (person.email, person.password_hash, person.active, person.invited_by) == (
        "jane@leadsdirect.example", None, True, "cli")
    [message] = buyer_mailbox.to("jane@leadsdirect.example")
    assert "https://servicematch.example/buyer/welcome#" in body(message)
    with app.state.session_factory() as session:
        token = session.scalars(select(BuyerToken)).one()
    assert token.expires_at - token.created_at == timedelta(hours=72)
    # The link works: the person chooses a password and is signed in to its buyer.
    chosen = TestClient(app).post("/api/buyer/password", json={"token": buyer_mailbox.token(person.email, "welcome"),
                                                              "password": PASSWORD})
    assert chosen.status_code == 200 and chosen.json()["buyer"]["id"] == buyer_id


def test_a_buyer_given_by_id_may_have_several_people(cli, app, make_buyer, buyer_mailbox):
    buyer_id = make_buyer("Call Centre One")
    for email in ("a@callcentre.example", "b@callcentre.example"):
        result = cli("buyers", "invite", "--buyer", buyer_id, "--email", email)
        assert result.exit_code == 0, result.output
    assert [p.email for p in _people(app, buyer_id)] == ["a@callcentre.example", "b@callcentre.example"]
    assert buyer_mailbox.to("b@callcentre.example")


def test_an_unknown_or_ambiguous_buyer_is_a_clear_error_and_nobody_is_mailed(cli, app, make_buyer, buyer_mailbox):
    first, second = make_buyer("Twin Leads"), make_buyer("Twin Leads")
    unknown = cli("buyers", "invite", "--buyer", "No Such Buyer", "--email", "x@example.com")
    assert unknown.exit_code != 0 and "No buyer is named 'No Such Buyer'" in unknown.output
    ambiguous = cli("buyers", "invite", "--buyer", "Twin Leads", "--email", "x@example.com")
    assert ambiguous.exit_code != 0 and "2 buyers are named" in ambiguous.output
    assert first in ambiguous.output and second in ambiguous.output
    partial = cli("buyers", "invite", "--buyer", "Twin", "--email", "x@example.com")
    assert partial.exit_code != 0
    assert buyer_mailbox.to("x@example.com") == [] and _people(app, first) == _people(app, second) == []


def test_a_bad_or_taken_address_is_refused(cli, app, make_buyer, buyer_mailbox):
    ours, theirs = make_buyer("Ours"), make_buyer("Theirs")
    bad = cli("buyers", "invite", "--buyer", "Ours", "--email", "not an address")
    assert bad.exit_code != 0 and "e-mail address" in bad.output
    assert cli("buyers", "invite", "--buyer", "Ours", "--email", "jo@example.com").exit_code == 0
    again = cli("buyers", "invite", "--buyer", "Theirs", "--email", "JO@example.com")
    assert again.exit_code != 0 and "already" in again.output
    assert _people(app, theirs) == [] and len(_people(app, ours)) == 1
    assert len(buyer_mailbox.to("jo@example.com")) == 1


def test_the_command_is_listed_under_buyers(cli):
    result = cli("buyers", "--help")
    assert result.exit_code == 0 and "invite" in result.output
    assert "--buyer" in cli("buyers", "invite", "--help").output
