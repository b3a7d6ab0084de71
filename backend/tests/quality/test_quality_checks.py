"""The gate's offline checks, each alone: phone, e-mail, form, velocity, and the score they make."""

from __future__ import annotations

import logging
import sys
import types
from datetime import UTC, datetime, timedelta

import pytest

from servicematch.quality import reasons as r
from servicematch.quality.area_codes import state_of_area_code
from servicematch.quality.email_checks import MailServerCheck, email_reasons, is_disposable
from servicematch.quality.form_checks import SLACK_SECONDS, form_reasons
from servicematch.quality.history import History
from servicematch.quality.phone_checks import is_fake, phone_reasons
from servicematch.quality.twilio_lookup import line_reasons
from servicematch.quality.velocity import velocity_reasons

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("digits", ["5125550142", "2125550199", "5127777777", "2222222222", "1234567890",
                                    "2345678901", "9876543210", "5123456789", "5129876543"])
def test_made_up_numbers_are_fake(digits):
    assert is_fake(digits)
    assert r.PHONE_FAKE in phone_reasons(digits, "TX")


@pytest.mark.parametrize("digits", ["5124783921", "5125550200", "5125551234", "2125550099", "7137777778"])
def test_real_looking_numbers_are_not(digits):
    assert not is_fake(digits)


def test_the_area_code_is_weighed_against_the_leads_state():
    assert phone_reasons("5124783921", "TX") == []
    assert phone_reasons("5124783921", "CA") == [r.PHONE_AREA_STATE]
    assert phone_reasons("4155550100", "CA") == [r.PHONE_FAKE]  # "San Francisco, CA": California
    assert phone_reasons("2014783921", "NJ") == []  # one exchange of 201 is described as New York
    # Toll-free and Canadian area codes, and a lead without a state, give no verdict.
    assert phone_reasons("8004783921", "TX") == []
    assert phone_reasons("4164783921", "TX") == []
    assert phone_reasons("5124783921", None) == []
    assert (state_of_area_code("512"), state_of_area_code("202"), state_of_area_code("800")) == ("TX", "DC", None)


def test_no_phone_no_verdict():
    assert phone_reasons("", "TX") == []


@pytest.mark.parametrize(("email", "expected"), [
    ("maria.garcia@example.com", []),
    ("someone@mailinator.com", [r.EMAIL_DISPOSABLE]),
    ("Someone@Box.Mailinator.com", [r.EMAIL_DISPOSABLE]),  # a subdomain of a throwaway domain
    ("info@garcia-hvac.com", [r.EMAIL_ROLE]),
    ("Sales+leads@garcia-hvac.com", [r.EMAIL_ROLE]),  # a +tag changes nothing
    ("noreply@guerrillamail.com", [r.EMAIL_DISPOSABLE, r.EMAIL_ROLE]),
    ("", []),
])
def test_email_reasons(email, expected):
    assert email_reasons(email) == expected


def test_only_whole_labels_make_a_domain_disposable():
    assert is_disposable("mailinator.com")
    assert not is_disposable("hvacmailinator.com")
    assert not is_disposable("mailinator.com.example.com")


def test_the_mail_server_check_without_dnspython_gives_no_verdict_and_says_so_once(caplog, monkeypatch):
    monkeypatch.setitem(sys.modules, "email_validator.deliverability", None)  # as when dnspython is missing
    check = MailServerCheck(timeout_seconds=1)
    with caplog.at_level(logging.WARNING, logger="servicematch.quality"):
        assert check.reasons("maria@example.com") == []
        assert check.reasons("ann@example.org") == []
    assert sum("dnspython is not installed" in message for message in caplog.messages) == 1


def test_a_domain_without_a_mail_server_is_flagged_and_remembered(monkeypatch):
    from email_validator import EmailUndeliverableError

    asked = []

    def deliverability(domain, domain_i18n, timeout=None):
        asked.append(domain)
        if domain == "no-mail.example":
            raise EmailUndeliverableError("The domain name no-mail.example does not accept email.")
        if domain == "slow.example":
            return {"unknown-deliverability": "timeout"}
        return {"mx": [(10, "mx.example")], "mx_fallback_type": None}

    module = types.ModuleType("email_validator.deliverability")
    module.validate_email_deliverability = deliverability
    monkeypatch.setitem(sys.modules, "email_validator.deliverability", module)
    check = MailServerCheck(timeout_seconds=1)
    assert check.reasons("ann@no-mail.example") == [r.EMAIL_NO_MAIL_SERVER]
    assert check.reasons("bob@no-mail.example") == [r.EMAIL_NO_MAIL_SERVER]
    assert check.reasons("ann@example.com") == []
    assert check.reasons("ann@slow.example") == []
    assert check.reasons("bob@slow.example") == []
    # Definite answers are kept per domain; a timeout is asked again.
    assert asked == ["no-mail.example", "example.com", "slow.example", "slow.example"]


def _form(signals, *, first_seen_seconds_before: float | None = None, flow: str = "form") -> list[str]:
    first_seen = None if first_seen_seconds_before is None else NOW - timedelta(seconds=first_seen_seconds_before)
    return form_reasons(signals, flow=flow, created_at=NOW, history=History(first_seen_at=first_seen), min_seconds=5)


def test_a_person_filling_the_form_raises_nothing():
    assert _form({"form_seconds": 48.0, "tab_id": "t" * 8, "honeypot": False}, first_seen_seconds_before=49) == []


def test_the_honeypot_and_a_fast_form_are_flagged():
    assert _form({"form_seconds": 48.0, "tab_id": "t" * 8, "honeypot": True},
                 first_seen_seconds_before=49) == [r.HONEYPOT]
    assert _form({"form_seconds": 2.1, "tab_id": "t" * 8, "honeypot": False},
                 first_seen_seconds_before=2.5) == [r.FORM_TOO_FAST]


def test_the_servers_clock_catches_a_report_that_lies():
    # The browser says 40 s; the server first saw the tab 3 s before the lead: too fast, and a lie.
    assert _form({"form_seconds": 40.0, "tab_id": "t" * 8}, first_seen_seconds_before=3) == [
        r.FORM_TOO_FAST, r.FORM_TIMING_MISMATCH]
    # A report a little above the server's own clock is a late beacon, not a lie.
    assert _form({"form_seconds": 30.0 + SLACK_SECONDS, "tab_id": "t" * 8}, first_seen_seconds_before=30) == []
    # Less than the server saw is a reload: the form started again.
    assert _form({"form_seconds": 20.0, "tab_id": "t" * 8}, first_seen_seconds_before=400) == []


def test_a_tab_the_server_never_saw_and_a_form_that_reports_nothing():
    assert _form({"form_seconds": 48.0, "tab_id": "t" * 8}) == [r.FORM_UNCONFIRMED]
    assert _form(None) == [r.FORM_UNREPORTED]
    assert _form({"honeypot": False}) == [r.FORM_UNREPORTED]
    # The call flow's pages do not report yet: nothing is held against its leads.
    assert _form(None, flow="call") == []


def test_a_doubtful_recaptcha_score():
    assert _form({"form_seconds": 48.0, "recaptcha_score": 0.5}) == [r.RECAPTCHA_LOW]
    assert _form({"form_seconds": 48.0, "recaptcha_score": 0.9}) == []


def test_velocity_flags_the_key_that_reached_the_limit():
    assert velocity_reasons(History(phone_leads=2, email_leads=3, address_leads=0, ip_leads=9), limit=3) == [
        r.VELOCITY_EMAIL, r.VELOCITY_IP]
    assert velocity_reasons(History(), limit=1) == []


@pytest.mark.parametrize(("valid", "line", "expected"), [
    (True, {"type": "mobile", "carrier_name": "Verizon Wireless"}, []),
    (True, {"type": "fixedVoip", "carrier_name": "Comcast"}, []),
    (True, {"type": "nonFixedVoip", "carrier_name": "Bandwidth/13 - Bandwidth.com - SVR"}, [r.PHONE_VOIP]),
    (True, {"type": "tollFree", "carrier_name": None}, [r.PHONE_NOT_PERSONAL]),
    (True, {"type": "mobile", "carrier_name": "TracFone Wireless"}, [r.PHONE_PREPAID]),
    (False, None, [r.PHONE_INVALID]),
    (True, None, []),
])
def test_line_types(valid, line, expected):
    assert line_reasons(valid=valid, line=line) == expected


def test_the_score_and_the_hold():
    assert r.score([]) == 100
    assert r.score([r.EMAIL_ROLE, r.EMAIL_ROLE]) == 90  # a reason counts once
    assert r.score([r.HONEYPOT, r.EMAIL_ROLE]) == 0
    assessment = r.judged([r.EMAIL_ROLE, r.PHONE_AREA_STATE, r.EMAIL_DISPOSABLE], hold_below=30)
    assert (assessment.score, assessment.reasons, assessment.hold) == (
        25, [r.EMAIL_DISPOSABLE, r.PHONE_AREA_STATE, r.EMAIL_ROLE], True)
    assert assessment.summary() == {"score": 25, "reasons": [r.EMAIL_DISPOSABLE, r.PHONE_AREA_STATE, r.EMAIL_ROLE]}
    assert not r.judged([r.EMAIL_DISPOSABLE], hold_below=30).hold
    assert not r.judged([r.HONEYPOT], hold_below=0).hold  # 0 turns holds off


def test_the_certain_signs_hold_a_lead_on_their_own_and_the_doubtful_ones_do_not():
    for certain in (r.HONEYPOT, r.TRUSTEDFORM_FAILED, r.FORM_TIMING_MISMATCH, r.FORM_TOO_FAST, r.PHONE_FAKE,
                    r.PHONE_INVALID):
        assert r.judged([certain], hold_below=30).hold, certain
    for doubtful in set(r.WEIGHTS) - {r.HONEYPOT, r.TRUSTEDFORM_FAILED, r.FORM_TIMING_MISMATCH, r.FORM_TOO_FAST,
                                      r.PHONE_FAKE, r.PHONE_INVALID}:
        assert not r.judged([doubtful], hold_below=30).hold, doubtful
