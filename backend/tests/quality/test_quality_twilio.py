"""Twilio Lookup through the twilio library, against a local stand-in: what each line type gives,
and no verdict (never an error) when Twilio fails, is slow or refuses the credentials."""

from __future__ import annotations

import logging
import time

import pytest

from servicematch.quality import reasons as r
from servicematch.quality.twilio_lookup import PhoneLookup, is_enabled
from servicematch.settings import Settings

from .twilio_standin import ACCOUNT_SID, AUTH_TOKEN, TwilioStandIn, line

NUMBER = "5124783921"


@pytest.fixture
def standin():
    twilio = TwilioStandIn(slow_seconds=5.0).start()
    yield twilio
    twilio.stop()


def lookup_for(standin: TwilioStandIn, *, token: str = AUTH_TOKEN, timeout: float = 15.0) -> PhoneLookup:
    settings = Settings(environment="test", twilio_account_sid=ACCOUNT_SID, twilio_auth_token=token,
                        twilio_lookup_base=standin.base_url)
    return PhoneLookup(settings, timeout_seconds=timeout)


def test_on_only_with_both_credentials():
    assert not is_enabled(Settings(environment="test"))
    assert not is_enabled(Settings(environment="test", twilio_account_sid=ACCOUNT_SID))
    assert is_enabled(Settings(environment="test", twilio_account_sid=ACCOUNT_SID, twilio_auth_token=AUTH_TOKEN))


def test_a_mobile_number_gives_nothing_and_the_request_is_twilios(standin):
    assert lookup_for(standin).reasons(NUMBER) == []
    ((path, query, authorization),) = standin.calls
    assert path == f"/v2/PhoneNumbers/+1{NUMBER}"
    assert query == {"Fields": ["line_type_intelligence"]}
    assert authorization.startswith("Basic ")


@pytest.mark.parametrize(("kind", "carrier", "expected"), [
    ("nonFixedVoip", "Bandwidth/13 - Bandwidth.com - SVR", [r.PHONE_VOIP]),
    ("fixedVoip", "Comcast Phone, LLC", []),
    ("landline", "AT&T Texas", []),
    ("mobile", "Cricket Wireless", [r.PHONE_PREPAID]),
    ("pager", "Spok", [r.PHONE_NOT_PERSONAL]),
])
def test_line_types_and_carriers(standin, kind, carrier, expected):
    standin.lines[f"+1{NUMBER}"] = line(kind, carrier)
    assert lookup_for(standin).reasons(NUMBER) == expected


def test_a_number_twilio_calls_invalid(standin):
    standin.invalid.add(f"+1{NUMBER}")
    assert lookup_for(standin).reasons(NUMBER) == [r.PHONE_INVALID]


def test_failures_give_no_verdict_and_keep_the_number_out_of_the_log(standin, caplog):
    standin.failing.add(f"+1{NUMBER}")
    with caplog.at_level(logging.INFO):
        assert lookup_for(standin).reasons(NUMBER) == []
        assert lookup_for(standin, token="wrong").reasons("5124783922") == []
    assert any("answered 500" in message for message in caplog.messages)
    assert any("answered 401" in message for message in caplog.messages)
    assert not any("478392" in message for message in caplog.messages)


def test_a_slow_lookup_is_given_up_after_the_timeout(standin):
    standin.slow.add(f"+1{NUMBER}")
    started = time.monotonic()
    assert lookup_for(standin, timeout=0.3).reasons(NUMBER) == []
    assert time.monotonic() - started < 4


def test_nobody_listening_gives_no_verdict(standin):
    lookup = lookup_for(standin)
    standin.stop()
    assert lookup.reasons(NUMBER) == []
