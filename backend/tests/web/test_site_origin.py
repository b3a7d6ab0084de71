"""Production refuses the development origin: canonical links and the sitemap would name 127.0.0.1."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from servicematch.settings import DEFAULT_SITE_ORIGIN, Settings

PRODUCTION = {"environment": "production", "smtp_host": "smtp.example.com", "secret_key": "s" * 40,
              "data_key": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="}


@pytest.mark.parametrize("origin", [DEFAULT_SITE_ORIGIN, DEFAULT_SITE_ORIGIN + "/"])
def test_production_refuses_the_default_origin(origin):
    with pytest.raises(ValidationError, match="SERVICEMATCH_SITE_ORIGIN"):
        Settings(**PRODUCTION, site_origin=origin)


def test_production_starts_with_a_public_origin():
    assert Settings(**PRODUCTION, site_origin="https://www.servicematch.example").site_origin


def test_the_default_origin_is_fine_outside_production():
    assert Settings(environment="development").site_origin == DEFAULT_SITE_ORIGIN
