"""`servicematch buyers add|update|list` with how a buyer pays: --terms, --credit-limit, --net-days;
an update changes only what it is given, and finds the buyer by id or by name."""

from __future__ import annotations

import json

import pytest
from cli_support import shell_cli
from sqlalchemy import select

from servicematch.ledger.models import AccountKind, LedgerAccount
from servicematch.routing.models import Buyer

ADD = ("buyers", "add", "--name", "Bright Leads", "--post-url", "https://bright.example/post", "--price", "31.50",
       "--states", "TX")


@pytest.fixture
def cli(monkeypatch, settings):
    with shell_cli(monkeypatch, settings) as run:
        yield run


def stored(app, buyer_id: str) -> tuple[Buyer, LedgerAccount]:
    with app.state.session_factory() as session:
        buyer = session.get(Buyer, buyer_id)
        account = session.scalars(select(LedgerAccount).where(LedgerAccount.kind == AccountKind.BUYER,
                                                              LedgerAccount.owner_id == buyer_id)).one()
        session.expunge_all()
        return buyer, account


def test_a_buyer_added_without_terms_is_prepaid_and_empty(cli, app, prepaid_by_default):
    added = cli(*ADD)
    assert added.exit_code == 0, added.output
    buyer_id = added.output.split()[1]
    assert "terms: Prepaid  balance: $0.00  available: $0.00" in added.output
    _, account = stored(app, buyer_id)
    assert (account.terms, account.balance_cents, account.name) == ("prepaid", 0, "Bright Leads")


def test_a_buyer_added_on_credit_and_updated_by_name_changes_only_what_is_given(cli, app):
    added = cli(*ADD, "--terms", "credit", "--credit-limit", "5,000", "--net-days", "30")
    assert added.exit_code == 0, added.output
    buyer_id = added.output.split()[1]
    assert "Credit, limit $5,000.00, invoices due in 30 days" in added.output

    updated = cli("buyers", "update", "bright leads", "--credit-limit", "none", "--daily-cap", "12")
    assert updated.exit_code == 0, updated.output
    buyer, account = stored(app, buyer_id)
    assert (account.terms, account.credit_limit_cents, account.net_days) == ("credit", None, 30)
    assert (buyer.daily_cap, buyer.price_cents, buyer.states, buyer.post_url) == (
        12, 3150, ["TX"], "https://bright.example/post")

    renamed = cli("buyers", "update", buyer_id, "--name", "Brighter Leads", "--terms", "prepaid", "--shared")
    assert renamed.exit_code == 0, renamed.output
    buyer, account = stored(app, buyer_id)
    assert (buyer.name, buyer.exclusive, account.terms, account.name) == ("Brighter Leads", False, "prepaid",
                                                                         "Brighter Leads")

    [listed] = json.loads(cli("buyers", "list", "--json").output)
    assert (listed["terms"], listed["balance"], listed["available"], listed["netDays"]) == ("prepaid", 0.0, 0.0, 30)
    assert "terms: Prepaid" in cli("buyers", "list").output


@pytest.mark.parametrize("options, says", [
    (("--terms", "monthly"), "monthly"),
    (("--terms", "credit", "--credit-limit", "-5"), "credit limit"),
    (("--terms", "credit", "--credit-limit", "lots"), "credit limit"),
    (("--credit-limit", "500"), "credit terms"),
    (("--net-days", "400"), "400"),
])
def test_terms_that_make_no_sense_are_refused_and_nothing_is_added(cli, app, prepaid_by_default, options, says):
    result = cli(*ADD, *options)
    assert result.exit_code != 0 and says in result.output
    with app.state.session_factory() as session:
        assert session.scalars(select(Buyer)).all() == []


def test_an_update_needs_a_known_buyer_and_an_unambiguous_name(cli, app):
    cli(*ADD)
    cli("buyers", "add", "--name", "bright leads", "--post-url", "https://other.example/post", "--price", "5")
    missing = cli("buyers", "update", "Nobody Leads", "--terms", "credit")
    assert missing.exit_code != 0 and "No buyer is named 'Nobody Leads'" in missing.output
    ambiguous = cli("buyers", "update", "Bright Leads", "--terms", "credit")
    assert ambiguous.exit_code != 0 and "2 buyers are named 'Bright Leads'" in ambiguous.output
