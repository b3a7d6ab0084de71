from __future__ import annotations

import pytest
from pydantic import ValidationError

from servicematch.settings import DEFAULT_SECRET, Settings


def test_production_refuses_the_default_secret():
    with pytest.raises(ValidationError, match="SERVICEMATCH_SECRET_KEY"):
        Settings(environment="production", secret_key=DEFAULT_SECRET)


PRODUCTION_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="


def test_production_starts_with_a_private_secret_and_data_key():
    settings = Settings(environment="production", secret_key="x" * 40, data_key=PRODUCTION_KEY)
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
