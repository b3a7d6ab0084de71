"""`servicematch providers add|update` with how a provider pays: --terms, --credit-limit, --net-days,
set in the transaction that adds the provider; an update changes only what it is given."""

from __future__ import annotations

import pytest
from cli_support import shell_cli
from sqlalchemy import select

from servicematch.delivery.models import Provider
from servicematch.ledger.models import AccountKind, LedgerAccount

ADD = ("providers", "add", "--name", "Cool Air", "--email", "dispatch@coolair.example", "--service", "hvac",
       "--state", "TX")


@pytest.fixture
def cli(monkeypatch, settings):
    with shell_cli(monkeypatch, settings) as run:
        yield run


def account(app, provider_id: str) -> LedgerAccount:
    with app.state.session_factory() as session:
        found = session.scalars(select(LedgerAccount).where(LedgerAccount.kind == AccountKind.PROVIDER,
                                                            LedgerAccount.owner_id == provider_id)).one()
        session.expunge(found)
        return found


def test_a_provider_added_with_terms_has_its_account_from_the_start(cli, app):
    added = cli(*ADD, "--terms", "credit", "--credit-limit", "750", "--net-days", "20",
                "--webhook-url", "https://coolair.example/hooks")
    assert added.exit_code == 0, added.output
    provider_id = added.output.split()[2]
    assert "Credit, limit $750.00, invoices due in 20 days" in added.output
    assert added.output.split()[-1].startswith("whsec_")  # the generated secret is still the last word
    found = account(app, provider_id)
    assert (found.terms, found.credit_limit_cents, found.net_days, found.name) == ("credit", 75_000, 20, "Cool Air")


def test_a_provider_added_without_terms_is_prepaid_and_updated_by_name_later(cli, app, prepaid_by_default):
    added = cli(*ADD)
    assert added.exit_code == 0, added.output
    provider_id = added.output.split()[2]
    assert "terms: Prepaid  balance: $0.00" in added.output

    updated = cli("providers", "update", "cool air", "--terms", "credit")
    assert updated.exit_code == 0, updated.output
    assert "Credit, no limit, invoices due in 15 days" in updated.output
    assert (account(app, provider_id).terms, account(app, provider_id).credit_limit_cents) == ("credit", None)

    assert cli("providers", "update", provider_id, "--net-days", "45").exit_code == 0
    assert (account(app, provider_id).terms, account(app, provider_id).net_days) == ("credit", 45)


@pytest.mark.parametrize("options, says", [
    (("--terms", "credit", "--credit-limit", "-1"), "credit limit"),
    (("--credit-limit", "100"), "credit terms"),
    (("--terms", "weekly"), "weekly"),
])
def test_terms_that_make_no_sense_add_no_provider(cli, app, prepaid_by_default, options, says):
    result = cli(*ADD, *options)
    assert result.exit_code != 0 and says in result.output
    with app.state.session_factory() as session:
        assert session.scalars(select(Provider)).all() == []


def test_an_update_with_nothing_to_change_or_nobody_to_change_says_so(cli, app):
    cli(*ADD)
    nothing = cli("providers", "update", "Cool Air")
    assert nothing.exit_code != 0 and "nothing to change" in nothing.output
    nobody = cli("providers", "update", "Warm Air", "--terms", "prepaid")
    assert nobody.exit_code != 0 and "No provider is named 'Warm Air'" in nobody.output
