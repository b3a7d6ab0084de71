"""Signing secrets and the Standard Webhooks headers, apart from any request."""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import UTC, datetime

import pytest
from standardwebhooks import Webhook

from servicematch.outbound.signing import (
    SECRET_PREFIX,
    new_webhook_secret,
    secret_problem,
    signature_header,
    signing_key,
    webhook_headers,
)

BODY = '{"type":"lead.revoked","data":{"leadId":"L1","note":"café"}}'.encode()


def test_new_secrets_are_whsec_base64_of_32_random_bytes():
    made = {new_webhook_secret() for _ in range(20)}
    assert len(made) == 20
    for secret in made:
        assert secret.startswith(SECRET_PREFIX) and secret_problem(secret) is None
        assert base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True) == signing_key(secret)
        assert len(signing_key(secret)) == 32


def test_a_whsec_secret_signs_with_its_decoded_bytes_any_other_with_its_own_bytes():
    whsec = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"  # 24 bytes, base64 without padding
    assert signing_key(whsec) == base64.b64decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
    assert signing_key("s3cret") == b"s3cret" and signing_key("clé") == "clé".encode()
    # Missing base64 padding is tolerated, as the libraries tolerate it.
    padded = new_webhook_secret()
    assert signing_key(padded.rstrip("=")) == signing_key(padded)


# A fixed whsec_ secret: test ids must be the same in every pytest-xdist worker.
@pytest.mark.parametrize("secret", ["s3cret", "clé secrète", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwQNg0Zk1n5sI="])
def test_the_headers_are_what_the_library_makes_from_the_receivers_secret(secret):
    at = datetime(2026, 11, 25, 1, 2, 3, tzinfo=UTC)
    headers = webhook_headers(secret=secret, message_id="d-1", timestamp=int(at.timestamp()), body=BODY)
    assert headers["webhook-id"] == "d-1" and headers["webhook-timestamp"] == str(int(at.timestamp()))
    given = secret if secret.startswith(SECRET_PREFIX) else base64.b64encode(secret.encode()).decode()
    assert headers["webhook-signature"] == Webhook(given).sign("d-1", at, BODY.decode())
    # By hand, as the specification writes it: v1,base64(HMAC-SHA256(key, "<id>.<timestamp>.<body>")).
    signed = b"d-1." + str(int(at.timestamp())).encode() + b"." + BODY
    digest = hmac.new(signing_key(secret), signed, hashlib.sha256).digest()
    assert headers["webhook-signature"] == "v1," + base64.b64encode(digest).decode()


def test_without_a_secret_the_message_is_named_but_not_signed():
    assert webhook_headers(secret="", message_id="d-1", timestamp=1, body=BODY) == {
        "webhook-id": "d-1", "webhook-timestamp": "1"}


def test_the_deprecated_header_keeps_its_format_and_key():
    expected = hmac.new(b"s3cret", b"1700000000." + BODY, hashlib.sha256).hexdigest()
    assert signature_header(secret="s3cret", body=BODY, timestamp=1700000000) == f"t=1700000000,v1={expected}"


@pytest.mark.parametrize("secret", ["whsec_", "whsec_not base64!", "whsec_c2hvcnQ=", "whsec_" + "A" * 31])
def test_a_secret_that_starts_with_whsec_must_be_one(secret):
    assert "at least 24 bytes" in secret_problem(secret)


@pytest.mark.parametrize("secret", [None, "", "s3cret", "whsec", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"])
def test_other_secrets_are_accepted(secret):
    assert secret_problem(secret) is None
