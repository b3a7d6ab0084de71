"""The buyer portal's one-time links (access/one_time.py's rules on its own table): an
invitation (72 hours) and a new password (1 hour)."""

from __future__ import annotations

from datetime import timedelta

from servicematch.access.one_time import OneTimeLinks
from servicematch.buyer.models import BuyerToken, BuyerTokenPurpose

LIFETIME = {
    BuyerTokenPurpose.INVITE: timedelta(hours=72),
    BuyerTokenPurpose.RESET: timedelta(hours=1),
}
LINKS = OneTimeLinks(table=BuyerToken, lifetimes=LIFETIME)
