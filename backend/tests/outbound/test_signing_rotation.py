"""A rotated secret's overlap: a signature per secret in both headers, each one verifiable alone,
and the old secret dropped once its time is up."""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from servicematch.outbound.signing import (
    new_webhook_secret,
    overlap_secrets,
    signature_header,
    verify_signature,
    webhook_headers,
)

BODY = b'{"type":"lead.ping","pingId":"p-1"}'
AT = datetime(2026, 11, 28, 12, 0, 0, tzinfo=UTC)
STAMP = int(AT.timestamp())


def _verify(secret: str, headers: dict[str, str]) -> None:
    """As a receiver with this one secret checks a request (the library at AT's time)."""
    webhook = Webhook(secret)
    expected = webhook.sign(headers["webhook-id"], AT, BODY.decode())
    if expected not in headers["webhook-signature"].split(" "):
        raise WebhookVerificationError("No matching signature found")


def test_during_an_overlap_the_header_carries_the_new_signature_then_the_old_one():
    new, old = new_webhook_secret(), new_webhook_secret()
    headers = webhook_headers(secret=new, message_id="m-1", timestamp=STAMP, body=BODY, extra_secrets=[old])
    first, second = headers["webhook-signature"].split(" ")
    assert first == Webhook(new).sign("m-1", AT, BODY.decode())
    assert second == Webhook(old).sign("m-1", AT, BODY.decode())
    _verify(new, headers)
    _verify(old, headers)
    with pytest.raises(WebhookVerificationError):
        _verify(new_webhook_secret(), headers)


def test_the_library_accepts_either_secret_against_a_header_with_both():
    new, old = new_webhook_secret(), new_webhook_secret()
    now = int(datetime.now(UTC).timestamp())
    headers = webhook_headers(secret=new, message_id="m-2", timestamp=now, body=BODY, extra_secrets=(old,))
    assert Webhook(new).verify(BODY, headers) == Webhook(old).verify(BODY, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(new_webhook_secret()).verify(BODY, headers)


def test_without_extra_secrets_the_headers_are_as_before():
    secret = new_webhook_secret()
    assert webhook_headers(secret=secret, message_id="m", timestamp=STAMP, body=BODY) == webhook_headers(
        secret=secret, message_id="m", timestamp=STAMP, body=BODY, extra_secrets=())
    assert " " not in webhook_headers(secret=secret, message_id="m", timestamp=STAMP, body=BODY)["webhook-signature"]
    assert signature_header(secret="s3cret", body=BODY, timestamp=STAMP).count("v1=") == 1


def test_the_deprecated_header_carries_one_v1_per_secret_and_either_verifies():
    header = signature_header(secret="new-secret", body=BODY, timestamp=STAMP, extra_secrets=["old-secret"])
    assert header.startswith(f"t={STAMP},v1=") and header.count(",v1=") == 2
    for secret in ("new-secret", "old-secret"):
        assert verify_signature(secret=secret, body=BODY, header=header, now=STAMP)
    assert not verify_signature(secret="other", body=BODY, header=header, now=STAMP)
    assert not verify_signature(secret="old-secret", body=BODY + b" ", header=header, now=STAMP)
    assert not verify_signature(secret="old-secret", body=BODY, header=header, now=STAMP + 3600)


@pytest.mark.parametrize("header", ["", "v1=abc", "t=x,v1=abc", "t=1,", "garbage"])
def test_a_malformed_deprecated_header_never_verifies(header):
    assert not verify_signature(secret="s", body=BODY, header=header, now=1)


def test_the_old_secret_signs_only_until_its_time():
    until = AT + timedelta(hours=24)
    assert overlap_secrets("old", until, timestamp=STAMP) == ("old",)
    assert overlap_secrets("old", until, timestamp=int(until.timestamp()) - 1) == ("old",)
    assert overlap_secrets("old", until, timestamp=int(until.timestamp())) == ()
    # SQLite hands back naive times: they are UTC.
    assert overlap_secrets("old", until.replace(tzinfo=None), timestamp=STAMP) == ("old",)
    assert overlap_secrets(None, until, timestamp=STAMP) == ()
    assert overlap_secrets("", until, timestamp=STAMP) == ()
    assert overlap_secrets("old", None, timestamp=STAMP) == ()


def test_a_non_whsec_extra_secret_signs_with_its_own_bytes():
    headers = webhook_headers(secret=new_webhook_secret(), message_id="m-3", timestamp=STAMP, body=BODY,
                              extra_secrets=["s3cret"])
    _verify(base64.b64encode(b"s3cret").decode(), headers)
