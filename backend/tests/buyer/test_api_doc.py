"""The signature check of docs/buyer-api.md, run as written: against a post the worker sent while
the buyer's secret was being rotated (both signatures, either secret verifies), and against what
it must refuse."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from buyer.sales_support import clock, make_lead, post_receiver, worker  # noqa: F401
from servicematch.kernel.clock import utcnow
from servicematch.outbound.signing import new_webhook_secret, webhook_headers
from servicematch.routing.models import Buyer

DOC = Path(__file__).resolve().parents[3] / "docs" / "buyer-api.md"


@pytest.fixture(scope="module")
def verify():
    section = DOC.read_text(encoding="utf-8").split("## Verifying our signatures", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found, f"no Python example in {DOC}"
    names: dict = {}
    exec(compile(found.group(1), str(DOC), "exec"), names)  # noqa: S102 (the documented example, as written)
    return names["verify"]


def test_a_post_during_a_rotation_verifies_with_the_new_secret_and_with_the_old(
        app, make_buyer, make_lead, worker, post_receiver, verify):  # noqa: F811 (the fixtures imported above)
    old, new = new_webhook_secret(), new_webhook_secret()
    buyer = make_buyer(post_url=post_receiver.url, price_cents=3000, secret=new)
    with app.state.session_factory() as session:
        session.execute(update(Buyer).where(Buyer.id == buyer).values(
            previous_secret=old, previous_secret_until=utcnow() + timedelta(hours=24)))
        session.commit()
    make_lead()
    worker.run_until_idle()
    [post] = post_receiver.wait_for(1)
    headers = {name.lower(): value for name, value in post.headers.items()}
    assert len(headers["webhook-signature"].split()) == 2
    verify([new], post.body, headers)
    verify([old], post.body, headers)
    verify([new_webhook_secret(), old], post.body, headers)
    with pytest.raises(ValueError):
        verify([new_webhook_secret()], post.body, headers)
    with pytest.raises(ValueError):
        verify([new, old], post.body.replace(b"Garcia", b"Garcis"), headers)


def test_a_stale_or_forged_signature_is_refused(verify):
    secret = new_webhook_secret()
    body = b'{"leadId": "5f0c"}'
    now = int(time.time())
    verify([secret], body, webhook_headers(secret=secret, message_id="msg_1", timestamp=now, body=body))
    stale = webhook_headers(secret=secret, message_id="msg_1", timestamp=now - 301, body=body)
    with pytest.raises(ValueError, match="5 minutes"):
        verify([secret], body, stale)
    other_id = {**webhook_headers(secret=secret, message_id="msg_1", timestamp=now, body=body), "webhook-id": "msg_2"}
    with pytest.raises(ValueError, match="no signature"):
        verify([secret], body, other_id)
    unversioned = {**other_id, "webhook-id": "msg_1",
                   "webhook-signature": other_id["webhook-signature"].replace("v1,", "v2,")}
    with pytest.raises(ValueError, match="no signature"):
        verify([secret], body, unversioned)
