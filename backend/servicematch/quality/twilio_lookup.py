"""Line type and carrier of a phone number through Twilio Lookup v2 (Line Type Intelligence).

On while SERVICEMATCH_TWILIO_ACCOUNT_SID and SERVICEMATCH_TWILIO_AUTH_TOKEN are set; the twilio
library does the call. Its Lookups domain keeps its base URL in `base_url`, which
SERVICEMATCH_TWILIO_LOOKUP_BASE replaces (a local stand-in in tests). A lookup that fails, times
out or is refused gives no verdict: the lead is judged without it.
"""

from __future__ import annotations

import logging

from requests import RequestException
from twilio.base.exceptions import TwilioException, TwilioRestException
from twilio.http.http_client import TwilioHttpClient
from twilio.rest import Client

from servicematch.settings import Settings

from .reasons import PHONE_INVALID, PHONE_NOT_PERSONAL, PHONE_PREPAID, PHONE_VOIP

log = logging.getLogger("servicematch.quality")
# The library logs each request's URL, which holds the phone number, at INFO: its own logger,
# kept at WARNING, keeps numbers out of the log.
_library_log = logging.getLogger("servicematch.quality.twilio_http")
_library_log.setLevel(logging.WARNING)

TIMEOUT_SECONDS = 2.0
# Twilio's line types (`line_type_intelligence.type`) that are no one's own phone.
NOT_PERSONAL_TYPES = frozenset({"tollFree", "premium", "sharedCost", "uan", "voicemail", "pager"})
# An app number anyone can get in a minute; fixed VoIP (cable and home phone services) is a household's.
VOIP_TYPES = frozenset({"nonFixedVoip"})
# Carrier names of prepaid brands, as the carrier_name of their numbers begins (lower case). Line
# Type Intelligence has no prepaid flag, so the brand is the sign; a small weight for it.
PREPAID_CARRIERS = (
    "tracfone", "straight talk", "boost", "cricket", "metro by t-mobile", "metropcs", "total wireless",
    "simple mobile", "net10", "page plus", "h2o", "lycamobile", "ultra mobile", "mint mobile", "tello",
    "red pocket", "good2go", "safelink", "assurance wireless", "q link", "qlink",
)


def is_enabled(settings: Settings) -> bool:
    return bool(settings.twilio_account_sid and settings.twilio_auth_token)


class PhoneLookup:
    """One Twilio client for the process (its HTTP session keeps connections open)."""

    def __init__(self, settings: Settings, *, timeout_seconds: float = TIMEOUT_SECONDS) -> None:
        http_client = TwilioHttpClient(timeout=timeout_seconds, logger=_library_log)
        self.client = Client(settings.twilio_account_sid, settings.twilio_auth_token, http_client=http_client)
        if settings.twilio_lookup_base:
            self.client.lookups.base_url = settings.twilio_lookup_base.rstrip("/")

    def reasons(self, digits: str) -> list[str]:
        """The reasons Twilio's answer for a ten-digit US number gives; [] when it gives none."""
        try:
            number = self.client.lookups.v2.phone_numbers(f"+1{digits}").fetch(fields="line_type_intelligence")
        except TwilioRestException as exc:
            # Its message names the URL, and so the number: only the status and Twilio's code.
            log.warning("Twilio Lookup answered %s (code %s): no verdict on the line type", exc.status, exc.code)
            return []
        except (TwilioException, RequestException, ValueError) as exc:
            log.warning("Twilio Lookup could not be asked (%s): no verdict on the line type", type(exc).__name__)
            return []
        return line_reasons(valid=number.valid, line=number.line_type_intelligence)


def line_reasons(*, valid: bool | None, line: dict | None) -> list[str]:
    """Reasons from a Lookup answer's `valid` and `line_type_intelligence`."""
    if valid is False:
        return [PHONE_INVALID]
    line = line or {}
    kind = line.get("type")
    carrier = (line.get("carrier_name") or "").lower()
    reasons = []
    if kind in NOT_PERSONAL_TYPES:
        reasons.append(PHONE_NOT_PERSONAL)
    elif kind in VOIP_TYPES:
        reasons.append(PHONE_VOIP)
    if carrier.startswith(PREPAID_CARRIERS):
        reasons.append(PHONE_PREPAID)
    return reasons
