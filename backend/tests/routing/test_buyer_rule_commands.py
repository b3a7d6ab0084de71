"""`servicematch buyers add|update` with a buyer's own rules (--min-quality, --duplicate-days,
--duplicate-match, --duplicate-scope, --global-duplicates), and `providers add|update --min-quality`:
what is given changes, bounds are refused by name, nothing else moves."""

from __future__ import annotations

import json

import pytest
from cli_support import shell_cli
from sqlalchemy import select

from servicematch.delivery.models import Provider
from servicematch.routing.models import Buyer

ADD = ("buyers", "add", "--name", "Bright Leads", "--post-url", "https://bright.example/post", "--price", "31.50")
PROVIDER = ("providers", "add", "--name", "Cool Air", "--email", "dispatch@coolair.example", "--service", "hvac",
            "--state", "TX")


@pytest.fixture
def cli(monkeypatch, settings):
    with shell_cli(monkeypatch, settings) as run:
        yield run


def rules_of(app, buyer_id: str) -> tuple:
    with app.state.session_factory() as session:
        buyer = session.get(Buyer, buyer_id)
        return buyer.min_quality, buyer.duplicate_days, buyer.duplicate_match, buyer.duplicate_scope


def test_a_buyer_added_without_rules_takes_any_score_and_the_sites_duplicate_rule(cli, app):
    added = cli(*ADD)
    assert added.exit_code == 0, added.output
    assert "any score  duplicates: the site's rule" in added.output
    assert rules_of(app, added.output.split()[1]) == (None, None, "phone", "service")


def test_rules_are_set_changed_one_at_a_time_and_given_back_to_the_site(cli, app):
    added = cli(*ADD, "--min-quality", "60", "--duplicate-days", "45", "--duplicate-match", "either",
                "--duplicate-scope", "all")
    assert added.exit_code == 0, added.output
    buyer_id = added.output.split()[1]
    assert "min score 60  duplicates: same phone or e-mail, any service, within 45 days" in added.output
    assert rules_of(app, buyer_id) == (60, 45, "either", "all")

    # Only what is given changes; the other terms stay as they were.
    changed = cli("buyers", "update", "bright leads", "--duplicate-match", "email", "--min-quality", "none")
    assert changed.exit_code == 0, changed.output
    assert rules_of(app, buyer_id) == (None, 45, "email", "all")
    with app.state.session_factory() as session:
        assert session.get(Buyer, buyer_id).price_cents == 3150

    [listed] = json.loads(cli("buyers", "list", "--json").output)
    assert (listed["minQuality"], listed["duplicateDays"], listed["duplicateMatch"], listed["duplicateScope"]) == (
        None, 45, "email", "all")
    assert "duplicates: same e-mail, any service, within 45 days" in cli("buyers", "list").output

    assert cli("buyers", "update", buyer_id, "--duplicate-days", "0").exit_code == 0
    assert rules_of(app, buyer_id)[1] is None
    assert cli("buyers", "update", buyer_id, "--duplicate-days", "7", "--min-quality", "100").exit_code == 0
    assert rules_of(app, buyer_id)[:2] == (100, 7)
    back = cli("buyers", "update", buyer_id, "--global-duplicates")
    assert back.exit_code == 0 and "duplicates: the site's rule" in back.output
    assert rules_of(app, buyer_id) == (100, None, "email", "all")


@pytest.mark.parametrize(("options", "says"), [
    (("--min-quality", "101"), "0 to 100"),
    (("--min-quality", "-1"), "0 to 100"),
    (("--min-quality", "high"), "0 to 100"),
    (("--duplicate-days", "366"), "--duplicate-days"),
    (("--duplicate-days", "-3"), "--duplicate-days"),
    (("--duplicate-match", "fax"), "--duplicate-match"),
    (("--duplicate-scope", "vertical"), "--duplicate-scope"),
    (("--duplicate-match", "email"), "give --duplicate-days too"),
    (("--duplicate-days", "5", "--global-duplicates"), "not both"),
])
def test_rules_out_of_bounds_are_refused_by_name_and_nothing_is_added(cli, app, options, says):
    result = cli(*ADD, *options)
    assert result.exit_code != 0 and says in result.output
    with app.state.session_factory() as session:
        assert session.scalars(select(Buyer)).all() == []


def test_a_refused_update_changes_nothing(cli, app):
    buyer_id = cli(*ADD, "--min-quality", "40").output.split()[1]
    refused = cli("buyers", "update", buyer_id, "--min-quality", "70", "--duplicate-scope", "all")
    assert refused.exit_code != 0 and "--duplicate-days too" in refused.output
    assert rules_of(app, buyer_id) == (40, None, "phone", "service")


def test_a_provider_gets_a_minimum_score_when_added_and_changes_it_alone(cli, app):
    added = cli(*PROVIDER, "--min-quality", "55")
    assert added.exit_code == 0, added.output
    with app.state.session_factory() as session:
        provider = session.scalars(select(Provider)).one()
    assert provider.min_quality == 55
    assert "min score 55" in cli("providers", "list").output
    assert json.loads(cli("providers", "list", "--json").output)[0]["min_quality"] == 55

    changed = cli("providers", "update", "cool air", "--min-quality", "none")
    assert changed.exit_code == 0 and "any score" in changed.output and "terms:" not in changed.output
    assert cli("providers", "update", provider.id, "--min-quality", "80", "--net-days", "30").exit_code == 0
    with app.state.session_factory() as session:
        assert session.get(Provider, provider.id).min_quality == 80
    refused = cli("providers", "update", provider.id, "--min-quality", "500")
    assert refused.exit_code != 0 and "0 to 100" in refused.output
    assert cli("providers", "add", "--name", "Hot Air", "--email", "hot@air.example", "--service", "hvac",
               "--state", "TX", "--min-quality", "x").exit_code != 0
    with app.state.session_factory() as session:
        assert [p.min_quality for p in session.scalars(select(Provider))] == [80]
