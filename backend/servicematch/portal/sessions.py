"""Portal sessions: access/sessions.py's rules on the providers' own table, cookie and CSRF key.

The cookie (sm_pro) is sent only to /api/pro: never to the public pages, the console or its API;
an operator's session (another table, another cookie) never opens the portal, nor the reverse.
The known-device cookie (access/devices.py, sm_pro_device) goes only to the sign-in calls.
"""

from __future__ import annotations

from servicematch.access.devices import DeviceCookie
from servicematch.access.sessions import SessionKind
from servicematch.portal.models import ProviderAccount, ProviderSession

COOKIE_NAME = "sm_pro"
API_PREFIX = "/api/pro"
PORTAL = SessionKind(table=ProviderSession, account=ProviderAccount, owner="account_id", csrf_purpose="portal csrf",
                     cookie_name=COOKIE_NAME, cookie_path=API_PREFIX)
# The portal's e-mailed sign-in links (access/links.py) and known devices, apart from the console's.
SIGNIN_SURFACE = "portal"
PORTAL_DEVICE = DeviceCookie(name="sm_pro_device", path=f"{API_PREFIX}/session", key_purpose="portal known device")
