"""Check a received request as docs/lead-payload.md tells receivers to: with the standardwebhooks
package, from the secret as the receiver was given it."""

from __future__ import annotations

import base64
from datetime import datetime
from unittest import mock

import standardwebhooks.webhooks
from standardwebhooks import Webhook


def receiver_webhook(secret: str) -> Webhook:
    """A `whsec_` secret as it is; any other secret's UTF-8 bytes, base64-encoded."""
    if secret.startswith("whsec_"):
        return Webhook(secret)
    return Webhook(base64.b64encode(secret.encode()).decode())


def verified(received, *, secret: str, at: datetime | None = None):
    """The received JSON body when its Standard Webhooks headers sign it with `secret`, judged at
    `at` (a test clock's time; the real time when None); raises WebhookVerificationError if not."""
    webhook = receiver_webhook(secret)
    if at is None:
        return webhook.verify(received.body, received.headers)

    class _Then(datetime):
        @classmethod
        def now(cls, tz=None):
            return at.astimezone(tz)

    with mock.patch.object(standardwebhooks.webhooks, "datetime", _Then):
        return webhook.verify(received.body, received.headers)
