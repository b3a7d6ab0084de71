"""TrustedForm certificates verified and retained through its API, against a local stand-in."""

from __future__ import annotations

import time

import pytest

from servicematch.quality.trustedform import CertificateCheck, is_enabled
from servicematch.settings import Settings

from .trustedform_standin import API_KEY, EXPIRES_AT, TrustedFormStandIn

SITE = "https://servicematch.example"
PAGE = f"{SITE}/services/hvac"
CONSENT = ("By clicking Submit, I agree that ServiceMatch and up to three of its marketing partners may "
           "contact me at the number I gave, including by autodialed calls and texts.")
EMAIL, PHONE = "maria.garcia@example.com", "5124783921"


@pytest.fixture
def standin():
    trustedform = TrustedFormStandIn(slow_seconds=5.0).start()
    yield trustedform
    trustedform.stop()


def check_for(standin: TrustedFormStandIn, *, key: str = API_KEY, timeout: float = 15.0) -> CertificateCheck:
    return CertificateCheck(Settings(environment="test", trustedform_api_key=key, trustedform_api_base=standin.base_url,
                                     site_origin=SITE), timeout_seconds=timeout)


def verify(standin, url, *, key: str = API_KEY, timeout: float = 15.0, email: str = EMAIL, consent: str = CONSENT):
    return check_for(standin, key=key, timeout=timeout).verify(
        cert_url=url, lead_id="lead-1", email=email, phone=PHONE, consent_text=consent, page_url=PAGE)


def issue(standin, *, page_url: str = PAGE, page_text: str = f"<p>{CONSENT}</p>") -> str:
    # The page's own line breaks and case: the scan ignores both.
    return standin.issue(page_url=page_url, page_text=page_text.replace(" marketing ", "\n  Marketing "),
                         email=EMAIL, phone=PHONE)


def test_on_only_with_a_key():
    assert not is_enabled(Settings(environment="test"))
    assert is_enabled(Settings(environment="test", trustedform_api_key=API_KEY))


def test_a_good_certificate_is_verified_and_retained(standin):
    url = issue(standin)
    verdict = verify(standin, url)
    assert verdict.failed is False
    assert verdict.proof == {"trustedFormVerified": True, "trustedFormProblem": None, "trustedFormRetained": True,
                             "trustedFormRetainedUntil": EXPIRES_AT,
                             "trustedFormMaskedCertUrl": f"{standin.base_url}/masked-{url.rsplit('/', 1)[1][:12]}"}
    certificate_id = url.rsplit("/", 1)[1]
    assert standin.retained == {certificate_id: {"reference": "lead-1", "vendor": "ServiceMatch"}}
    (call,) = standin.calls
    assert call["headers"]["api-version"] == "4.0"
    assert call["body"]["match_lead"] == {"email": EMAIL, "phone": PHONE}
    assert call["body"]["insights"]["scans"] == {"required": [CONSENT]}


@pytest.mark.parametrize(("setup", "problem"), [
    (lambda s: f"{s.base_url}/0123456789abcdef0123", "TrustedForm has no such certificate"),
    (lambda s: issue(s, page_url="https://elsewhere.example/form"),
     "the certificate was recorded on elsewhere.example, not on this site"),
    (lambda s: issue(s, page_text="<p>Get a free iPad!</p>"), "our consent text is not on the certificate's page"),
])
def test_a_certificate_that_fails_is_flagged_with_its_problem(standin, setup, problem):
    verdict = verify(standin, setup(standin))
    assert verdict.failed is True
    assert verdict.proof["trustedFormVerified"] is False
    assert verdict.proof["trustedFormProblem"] == problem


def test_a_certificate_of_another_lead_fails(standin):
    verdict = check_for(standin).verify(cert_url=issue(standin), lead_id="lead-1", email="someone@else.example",
                                        phone="2125550000", consent_text=CONSENT, page_url=PAGE)
    assert verdict.failed is True
    assert verdict.proof["trustedFormProblem"] == (
        "the lead's e-mail and phone are not the ones the certificate recorded")


@pytest.mark.parametrize("url", ["https://trustedform.evil.example/0123456789abcdef", "javascript:alert(1)",
                                 "{base}/../../etc/passwd", "{base}/abc?x=1", ""])
def test_a_url_that_is_not_trustedforms_fails_and_the_key_goes_nowhere(standin, url):
    verdict = verify(standin, url.format(base=standin.base_url))
    assert verdict.failed is True
    assert verdict.proof["trustedFormProblem"] == "the certificate URL is not TrustedForm's"
    assert standin.calls == []


def test_trustedform_failing_refusing_the_key_or_slow_is_no_verdict(standin):
    failing = issue(standin)
    standin.failing.add(failing.rsplit("/", 1)[1])
    assert verify(standin, failing).failed is None
    refused = verify(standin, issue(standin), key="wrong-key")
    assert (refused.failed, refused.proof["trustedFormProblem"]) == (None, "TrustedForm refused our key")
    slow = issue(standin)
    standin.slow.add(slow.rsplit("/", 1)[1])
    started = time.monotonic()
    timed_out = verify(standin, slow, timeout=0.3)
    assert time.monotonic() - started < 4
    assert (timed_out.failed, timed_out.proof["trustedFormProblem"]) == (None, "TrustedForm unreachable")
    assert not timed_out.proof["trustedFormRetained"]
