"""Signed stop links: genuine ones read back; changed, cut, foreign and expired ones are refused clearly."""

from __future__ import annotations

from datetime import timedelta

import pytest

from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.privacy.links import EXPIRED, TAMPERED, read_link, sign_link, stop_url
from servicematch.settings import Settings

SETTINGS = Settings(secret_key="a-secret-long-enough-for-links-000000", site_origin="https://sm.example")


def test_a_signed_link_reads_back_and_names_its_lead_and_its_own_id() -> None:
    token = sign_link(settings=SETTINGS, purpose="stop", lead_id="lead-1")
    claims = read_link(settings=SETTINGS, token=token, purpose="stop")
    assert claims.lead_id == "lead-1" and claims.link_id
    assert sign_link(settings=SETTINGS, purpose="stop", lead_id="lead-1") != token  # one id per link
    assert stop_url(settings=SETTINGS, lead_id="x").startswith("https://sm.example/privacy/stop?t=")


@pytest.mark.parametrize("change", [
    lambda token: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # signature changed
    lambda token: token.split(".")[0],  # signature cut off
    lambda token: "x" + token,  # payload changed
    lambda token: "",
    lambda token: "not-a-token",
])
def test_a_changed_or_cut_link_is_refused_with_a_clear_message(change) -> None:
    token = sign_link(settings=SETTINGS, purpose="stop", lead_id="lead-1")
    with pytest.raises(ServiceMatchError) as refused:
        read_link(settings=SETTINGS, token=change(token), purpose="stop")
    assert refused.value.error == TAMPERED and refused.value.status_code == 400


def test_a_link_signed_with_another_secret_or_for_another_purpose_is_refused() -> None:
    other = Settings(secret_key="another-secret-entirely-000000000000")
    with pytest.raises(ServiceMatchError):
        read_link(settings=SETTINGS, token=sign_link(settings=other, purpose="stop", lead_id="l"), purpose="stop")
    with pytest.raises(ServiceMatchError):
        read_link(settings=SETTINGS, token=sign_link(settings=SETTINGS, purpose="other", lead_id="l"),
                  purpose="stop")


def test_an_expired_link_is_refused_and_says_what_to_do_instead() -> None:
    token = sign_link(settings=SETTINGS, purpose="stop", lead_id="lead-1", lifetime=timedelta(days=1))
    read_link(settings=SETTINGS, token=token, purpose="stop", now=utcnow() + timedelta(hours=23))
    with pytest.raises(ServiceMatchError) as refused:
        read_link(settings=SETTINGS, token=token, purpose="stop", now=utcnow() + timedelta(days=1, seconds=5))
    assert refused.value.status_code == 410 and refused.value.error == EXPIRED
    assert "Privacy Choices" in EXPIRED
