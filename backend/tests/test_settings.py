from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from servicematch.settings import (
    DEFAULT_SECRET,
    Settings,
    SettingsError,
    load_settings,
    unknown_variables,
)


def test_production_refuses_the_default_secret():
    with pytest.raises(ValidationError, match="SERVICEMATCH_SECRET_KEY"):
        Settings(environment="production", secret_key=DEFAULT_SECRET)


PRODUCTION_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
PRODUCTION_ORIGIN = "https://www.servicematch.example"
MAIL = "smtp.servicematch.example"


def test_production_starts_with_a_private_secret_and_data_key():
    settings = Settings(environment="production", secret_key="x" * 40, data_key=PRODUCTION_KEY, smtp_host=MAIL,
                        site_origin=PRODUCTION_ORIGIN)
    assert settings.environment == "production"


def test_production_refuses_a_missing_data_key():
    with pytest.raises(ValidationError, match="SERVICEMATCH_DATA_KEY"):
        Settings(environment="production", secret_key="x" * 40)


def test_environment_variables_use_the_prefix(monkeypatch):
    monkeypatch.setenv("SERVICEMATCH_BRAND_NAME", "LocalPros")
    monkeypatch.setenv("SERVICEMATCH_DATABASE_URL", "postgresql+psycopg://u@h/db")
    settings = Settings()
    assert settings.brand_name == "LocalPros"
    assert not settings.is_sqlite


def test_public_config_holds_no_secret():
    settings = Settings(recaptcha_secret_key="private", secret_key="also-private", recaptcha_site_key="pub")
    exposed = str(settings.public_config())
    assert "private" not in exposed
    assert "pub" in exposed


STRONG = "s" * 32


def production(**overrides) -> Settings:
    values = {"environment": "production", "secret_key": STRONG, "data_key": PRODUCTION_KEY, "smtp_host": MAIL,
              "site_origin": PRODUCTION_ORIGIN, **overrides}
    return Settings(**values)


@pytest.mark.parametrize("name", ["secret_key", "admin_token", "buyer_secret"])
def test_production_refuses_a_secret_shorter_than_32_bytes(name):
    extra = {"buyer_url": "https://buyer.example/leads", "buyer_secret": STRONG, "buyer_name": "Acme Home Quotes LLC"}
    with pytest.raises(ValidationError, match=f"SERVICEMATCH_{name.upper()}.*32 bytes"):
        production(**{**extra, name: "x" * 31})
    assert getattr(production(**{**extra, name: "x" * 32}), name) == "x" * 32


def test_short_secrets_are_fine_outside_production():
    assert Settings(environment="development", secret_key="x", admin_token="y").admin_token == "y"


def test_a_buyer_secret_in_whsec_form_must_decode_to_24_bytes_anywhere():
    with pytest.raises(ValidationError, match="SERVICEMATCH_BUYER_SECRET.*at least 24 bytes"):
        Settings(environment="development", buyer_secret="whsec_not-base64")
    whsec = "whsec_" + "A" * 43 + "="
    assert production(buyer_url="https://buyer.example/leads", buyer_secret=whsec,
                      buyer_name="Acme Home Quotes LLC").buyer_secret == whsec
    assert Settings(environment="development", buyer_secret="s3cret").buyer_secret == "s3cret"


def test_production_refuses_a_buyer_url_without_a_buyer_secret():
    with pytest.raises(ValidationError, match="SERVICEMATCH_BUYER_SECRET"):
        production(buyer_url="https://buyer.example/leads")


def test_api_docs_are_on_outside_production_and_off_in_it_unless_turned_on():
    assert Settings(environment="development").api_docs_enabled
    assert not production().api_docs_enabled
    assert production(api_docs=True).api_docs_enabled
    assert not Settings(environment="test", api_docs=False).api_docs_enabled


def test_recaptcha_off_is_named_among_the_weaknesses():
    assert any("reCAPTCHA is off" in w for w in production().weaknesses())
    assert production(recaptcha_secret_key="k", recaptcha_site_key="p").weaknesses() == []


def test_an_unnamed_fixed_buyer_is_refused_in_production_and_named_among_the_weaknesses_elsewhere():
    """It would be on no marketing-partners list, so it would silently get no leads."""
    with pytest.raises(ValidationError, match="SERVICEMATCH_BUYER_NAME must be set"):
        production(buyer_url="https://buyer.example/leads", buyer_secret=STRONG)
    development = Settings(environment="development", buyer_url="http://127.0.0.1:9/leads")
    assert any(w.startswith("SERVICEMATCH_BUYER_NAME must be set") for w in development.weaknesses())
    named = Settings(environment="development", buyer_url="http://127.0.0.1:9/leads", buyer_name="Acme")
    assert not any("BUYER_NAME" in w for w in named.weaknesses())


def test_production_refuses_to_start_without_a_mail_server():
    with pytest.raises(ValidationError, match="SERVICEMATCH_SMTP_HOST must be set in production"):
        production(smtp_host="")


@pytest.mark.parametrize("environment", ["development", "test", "production"])
@pytest.mark.parametrize("key", ["not base64!", "MDEyMzQ1Njc4OWFiY2RlZg=="])  # the second is 16 bytes
def test_a_malformed_data_key_is_refused_at_start_in_every_environment(environment, key):
    with pytest.raises(ValidationError, match="data_key"):
        Settings(environment=environment, secret_key=STRONG, data_key=key, smtp_host=MAIL,
                 site_origin=PRODUCTION_ORIGIN)


def test_every_production_problem_is_listed_at_once():
    with pytest.raises(SettingsError) as refused:
        load_settings(environment="production", secret_key="short", buyer_url="http://buyer.example/leads")
    problems = refused.value.problems
    for name in ("SECRET_KEY", "DATA_KEY", "BUYER_SECRET", "BUYER_URL", "BUYER_NAME", "SITE_ORIGIN", "SMTP_HOST"):
        assert sum(line.startswith(f"SERVICEMATCH_{name} ") for line in problems) == 1, (name, problems)
    assert all("\n" not in line for line in problems)


def test_unreadable_values_and_production_rules_are_listed_together(monkeypatch):
    monkeypatch.setenv("SERVICEMATCH_ENVIRONMENT", "production")
    monkeypatch.setenv("SERVICEMATCH_SUBMIT_RATE_LIMIT", "ten")
    monkeypatch.setenv("SERVICEMATCH_DATA_KEY", "not base64!")
    with pytest.raises(SettingsError) as refused:
        load_settings()
    problems = refused.value.problems
    assert problems[0].startswith("SERVICEMATCH_DATA_KEY: is not valid base64")
    assert problems[1].startswith("SERVICEMATCH_SUBMIT_RATE_LIMIT: Input should be a valid integer")
    # The data key's own problem is not repeated as "must be set", and the value is never echoed.
    assert [line.split()[0] for line in problems[2:]] == ["SERVICEMATCH_SECRET_KEY", "SERVICEMATCH_SITE_ORIGIN",
                                                           "SERVICEMATCH_SMTP_HOST"]
    assert "not base64!" not in str(refused.value)



LEASE = "SERVICEMATCH_DELIVERY_LEASE_SECONDS"


@pytest.mark.parametrize("environment", ["development", "test", "production"])
@pytest.mark.parametrize(("lease", "timeout"), [(5, 10), (10, 10), (10, 10.5)])
def test_a_lease_no_longer_than_the_delivery_timeout_is_refused_at_start_in_every_environment(
        environment, lease, timeout):
    # The worker refuses it (delivery/worker.py): the server started, took leads, and its worker
    # died at each restart. Now it is one line among the other settings' problems.
    with pytest.raises(SettingsError) as refused:
        load_settings(environment=environment, secret_key=STRONG, data_key=PRODUCTION_KEY, smtp_host=MAIL,
                      site_origin=PRODUCTION_ORIGIN, delivery_lease_seconds=lease, delivery_timeout_seconds=timeout)
    assert refused.value.problems == [
        (f"{LEASE} ({lease}) must exceed SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS ({timeout:g}): a delivery is claimed "
         "for the lease, and one claimed for less than an attempt may take could be sent again by another worker "
         "while the first is still sending it")]


def test_a_lease_longer_than_the_delivery_timeout_starts():
    settings = Settings(environment="development", delivery_lease_seconds=11, delivery_timeout_seconds=10.5)
    assert (settings.delivery_lease_seconds, settings.delivery_timeout_seconds) == (11, 10.5)


def test_a_short_lease_is_listed_with_the_production_problems():
    with pytest.raises(SettingsError) as refused:
        load_settings(environment="production", secret_key="short", delivery_lease_seconds=5,
                      delivery_timeout_seconds=10)
    names = [line.split()[0] for line in refused.value.problems]
    assert names == [LEASE, "SERVICEMATCH_DATA_KEY", "SERVICEMATCH_SECRET_KEY", "SERVICEMATCH_SITE_ORIGIN",
                     "SERVICEMATCH_SMTP_HOST"]


def test_private_webhooks_allowed_in_production_are_named_among_the_weaknesses():
    [named] = [w for w in production(allow_private_webhooks=True).weaknesses() if "PRIVATE_WEBHOOKS" in w]
    assert named.startswith("SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS is true in production")
    for quiet in (production(), production(allow_private_webhooks=False),
                  Settings(environment="development", allow_private_webhooks=True), Settings(environment="test")):
        assert not any("PRIVATE_WEBHOOKS" in w for w in quiet.weaknesses())


def test_unknown_variables_with_the_prefix_are_named_with_a_likely_meaning():
    warnings = unknown_variables({"SERVICEMATCH_ENV": "production", "SERVICEMATCH_SUBMIT_RATE_LIMT": "5",
                                  "SERVICEMATCH_BRAND_NAME": "x", "servicematch_site_origin": "x",
                                  "SERVICEMATCH_TEST_DATABASES": "sqlite", "PATH": "/bin"})
    assert warnings == [
        "SERVICEMATCH_ENV is not a setting and is ignored (did you mean SERVICEMATCH_ENVIRONMENT?)",
        "SERVICEMATCH_SUBMIT_RATE_LIMT is not a setting and is ignored (did you mean SERVICEMATCH_SUBMIT_RATE_LIMIT?)",
    ]


def test_the_command_line_lists_configuration_problems_without_a_traceback(tmp_path):
    env = {name: value for name, value in os.environ.items() if not name.startswith("SERVICEMATCH_")}
    env.update(SERVICEMATCH_ENVIRONMENT="production", SERVICEMATCH_ENV="production",
               SERVICEMATCH_SUBMIT_RATE_LIMIT="ten")
    done = subprocess.run([sys.executable, "-m", "servicematch.cli", "check-catalog"], check=False, cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "SERVICEMATCH_ENV is not a setting and is ignored (did you mean SERVICEMATCH_ENVIRONMENT?)" in done.stderr
    listed = done.stderr.split("the configuration is not valid:\n", 1)[1].splitlines()
    assert [line.split()[0].rstrip(":") for line in listed] == [
        "SERVICEMATCH_SUBMIT_RATE_LIMIT", "SERVICEMATCH_SECRET_KEY", "SERVICEMATCH_DATA_KEY",
        "SERVICEMATCH_SITE_ORIGIN", "SERVICEMATCH_SMTP_HOST"]


def test_every_setting_is_in_the_env_example_and_the_readme():
    """.env.example says it lists every setting, and the README's table documents each one."""
    root = Path(__file__).resolve().parents[2]
    example, readme = (root / ".env.example").read_text(), (root / "README.md").read_text()
    names = [f"SERVICEMATCH_{name.upper()}" for name in Settings.model_fields]
    assert [name for name in names if name not in example] == []
    assert [name for name in names if name not in readme] == []
