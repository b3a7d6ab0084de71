"""The money settings' own rules: production refuses a Stripe secret key without the webhook's
signing secret (no card payment could ever be credited), and no environment takes top-up bounds
that let no amount through; each problem is one line naming its settings, listed with the others."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from servicematch.settings import Settings, SettingsError, load_settings

PRODUCTION = {"environment": "production", "secret_key": "s" * 32,
              "data_key": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=", "smtp_host": "smtp.servicematch.example",
              "site_origin": "https://www.servicematch.example"}


def test_production_refuses_a_stripe_key_without_the_webhook_secret():
    with pytest.raises(ValidationError, match="SERVICEMATCH_STRIPE_WEBHOOK_SECRET must be set in production"):
        Settings(**PRODUCTION, stripe_secret_key="sk_live_x")
    on = Settings(**PRODUCTION, stripe_secret_key="sk_live_x", stripe_webhook_secret="whsec_x")
    assert on.stripe_secret_key == "sk_live_x"
    off = Settings(**PRODUCTION)  # card payments off: nothing to verify
    assert off.stripe_secret_key == "" and not any("STRIPE" in weakness for weakness in off.weaknesses())


def test_elsewhere_a_stripe_key_without_the_webhook_secret_is_a_warning_at_start():
    development = Settings(stripe_secret_key="sk_test_x")
    assert any(w.startswith("SERVICEMATCH_STRIPE_WEBHOOK_SECRET must be set") for w in development.weaknesses())
    assert not any("STRIPE" in w for w in Settings(stripe_secret_key="sk_test_x",
                                                  stripe_webhook_secret="whsec_x").weaknesses())


@pytest.mark.parametrize("environment", ["development", "test", "production"])
def test_no_environment_takes_a_minimum_top_up_above_the_maximum(environment):
    values = {**PRODUCTION, "environment": environment}
    with pytest.raises(ValidationError, match=r"SERVICEMATCH_TOPUP_MIN_DOLLARS \(500\) must not exceed "
                                              r"SERVICEMATCH_TOPUP_MAX_DOLLARS \(100\)"):
        Settings(**values, topup_min_dollars=500, topup_max_dollars=100)
    assert Settings(**values, topup_min_dollars=100, topup_max_dollars=100).topup_max_dollars == 100


def test_the_money_problems_are_listed_with_the_others_one_line_each():
    with pytest.raises(SettingsError) as refused:
        load_settings(**{**PRODUCTION, "secret_key": "short"}, stripe_secret_key="sk_live_x",
                      topup_min_dollars=20, topup_max_dollars=10)
    problems = refused.value.problems
    assert any(line.startswith("SERVICEMATCH_STRIPE_WEBHOOK_SECRET must be set") for line in problems)
    assert any(line.startswith("SERVICEMATCH_TOPUP_MIN_DOLLARS (20) must not exceed") for line in problems)
    assert any("SERVICEMATCH_SECRET_KEY" in line for line in problems)


@pytest.mark.parametrize(("field", "value"), [("topup_min_dollars", 0), ("topup_max_dollars", 1_000_001),
                                              ("overdue_grace_days", -1), ("overdue_grace_days", 366)])
def test_each_money_setting_is_bounded(field, value):
    with pytest.raises(ValidationError):
        Settings(**{field: value})
