"""Buyer portal sessions: access/sessions.py's rules on the buyers' own table, cookie and CSRF key.

The cookie (sm_buyer) is sent only to /api/buyer: never to the public pages, the console, the
provider portal or their APIs; no other kind of session opens the buyer portal, nor the reverse.
Sessions and sign-in throttling follow the provider portal's settings (SERVICEMATCH_PORTAL_*).
"""

from __future__ import annotations

from servicematch.access.devices import DeviceCookie
from servicematch.access.sessions import SessionKind
from servicematch.buyer.models import BuyerAccount, BuyerSession

COOKIE_NAME = "sm_buyer"
API_PREFIX = "/api/buyer"
# The buyers' systems call under here with an API key, never a cookie.
KEY_API_PREFIX = "/api/buyer/v1"
BUYER_PORTAL = SessionKind(table=BuyerSession, account=BuyerAccount, owner="account_id",
                           csrf_purpose="buyer portal csrf", cookie_name=COOKIE_NAME, cookie_path=API_PREFIX)
# The buyer portal's e-mailed sign-in links (access/links.py) and known devices, apart from the others'.
SIGNIN_SURFACE = "buyer"
BUYER_DEVICE = DeviceCookie(name="sm_buyer_device", path=f"{API_PREFIX}/session",
                            key_purpose="buyer portal known device")
