from __future__ import annotations

import pytest
from pydantic import ValidationError

from servicematch.settings import DEFAULT_SECRET, Settings


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
    extra = {"buyer_url": "https://buyer.example/leads", "buyer_secret": STRONG}
    with pytest.raises(ValidationError, match=f"SERVICEMATCH_{name.upper()}.*32 bytes"):
        production(**{**extra, name: "x" * 31})
    assert getattr(production(**{**extra, name: "x" * 32}), name) == "x" * 32


def test_short_secrets_are_fine_outside_production():
    assert Settings(environment="development", secret_key="x", admin_token="y").admin_token == "y"


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


def test_production_refuses_to_start_without_a_mail_server():
    with pytest.raises(ValidationError, match="SERVICEMATCH_SMTP_HOST must be set in production"):
        production(smtp_host="")


@pytest.mark.parametrize("environment", ["development", "test", "production"])
@pytest.mark.parametrize("key", ["not base64!", "MDEyMzQ1Njc4OWFiY2RlZg=="])  # the second is 16 bytes
def test_a_malformed_data_key_is_refused_at_start_in_every_environment(environment, key):
    with pytest.raises(ValidationError, match="data_key"):
        Settings(environment=environment, secret_key=STRONG, data_key=key, smtp_host=MAIL,
                 site_origin=PRODUCTION_ORIGIN)
