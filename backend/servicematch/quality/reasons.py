"""Reason codes, what each costs, and the score they add up to (docs/quality.md).

A lead starts at 100; each distinct reason takes its weight off, down to 0. The weights put the
certain signs of a bot or of a lead nobody can sell (a filled honeypot, a failed consent
certificate, a form submitted faster than a person types, a made-up phone number) under any hold
threshold on their own, and the doubtful ones (a VoIP line, a role address, an area code from
another state) well above the default threshold of 30 unless several add up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The form
HONEYPOT = "honeypot"  # the field only bots see was filled
FORM_TOO_FAST = "form_too_fast"  # first step to submit faster than quality_min_form_seconds
FORM_TIMING_MISMATCH = "form_timing_mismatch"  # the browser's timing contradicts the server's
FORM_UNREPORTED = "form_unreported"  # the lead form sent no timing at all
FORM_UNCONFIRMED = "form_unconfirmed"  # the server saw no funnel event of the tab the form named
RECAPTCHA_LOW = "recaptcha_low"  # reCAPTCHA passed it, with a score under RECAPTCHA_DOUBTFUL
# The phone
PHONE_FAKE = "phone_fake"  # 555-01xx, one digit repeated, a run like 123-456-7890
PHONE_INVALID = "phone_invalid"  # Twilio Lookup: not a valid number
PHONE_NOT_PERSONAL = "phone_not_personal"  # Twilio Lookup: toll-free, premium, pager, voicemail...
PHONE_VOIP = "phone_voip"  # Twilio Lookup: non-fixed VoIP (an app number anyone can get)
PHONE_PREPAID = "phone_prepaid"  # Twilio Lookup: a prepaid brand's carrier name
PHONE_AREA_STATE = "phone_area_state"  # the area code serves another state than the lead's
# The e-mail
EMAIL_DISPOSABLE = "email_disposable"  # a throwaway-mailbox domain
EMAIL_ROLE = "email_role"  # info@, sales@, noreply@...: a desk, not a person
EMAIL_NO_MAIL_SERVER = "email_no_mail_server"  # quality_email_dns: the domain takes no mail
# Velocity: more leads than quality_velocity_limit with one of these in the window
VELOCITY_PHONE = "velocity_phone"
VELOCITY_EMAIL = "velocity_email"
VELOCITY_ADDRESS = "velocity_address"
VELOCITY_IP = "velocity_ip"
# Consent
TRUSTEDFORM_FAILED = "trustedform_failed"  # the certificate is missing at TrustedForm, or not for this lead

WEIGHTS: dict[str, int] = {
    HONEYPOT: 100,
    TRUSTEDFORM_FAILED: 100,
    FORM_TIMING_MISMATCH: 80,
    FORM_TOO_FAST: 75,
    PHONE_FAKE: 75,
    PHONE_INVALID: 75,
    PHONE_NOT_PERSONAL: 50,
    EMAIL_DISPOSABLE: 50,
    VELOCITY_PHONE: 40,
    VELOCITY_EMAIL: 40,
    EMAIL_NO_MAIL_SERVER: 40,
    VELOCITY_ADDRESS: 30,
    PHONE_VOIP: 30,
    VELOCITY_IP: 25,
    RECAPTCHA_LOW: 20,
    PHONE_AREA_STATE: 15,
    FORM_UNREPORTED: 10,
    EMAIL_ROLE: 10,
    PHONE_PREPAID: 10,
    FORM_UNCONFIRMED: 5,
}
MAX_SCORE = 100


def score(reasons: list[str] | set[str]) -> int:
    """100 less the weight of each distinct reason, never under 0."""
    return max(0, MAX_SCORE - sum(WEIGHTS[reason] for reason in set(reasons)))


def ordered(reasons: list[str] | set[str]) -> list[str]:
    """Distinct reasons, the heaviest first (then by name), as they are stored and sent."""
    return sorted(set(reasons), key=lambda reason: (-WEIGHTS[reason], reason))


@dataclass(frozen=True)
class Assessment:
    """The gate's verdict on one lead.

    `score` 0-100 and `reasons` (codes, heaviest first) are stored on the lead and sent to buyers;
    `hold` is whether the score is under quality_hold_below; `proof` holds what the third parties
    said (TrustedForm's verification and retention), for the consent proof of posts.
    """

    score: int
    reasons: list[str]
    hold: bool
    proof: dict = field(default_factory=dict)

    def summary(self) -> dict:
        """What pings and posts carry: {"score": 87, "reasons": ["phone_area_state"]}."""
        return {"score": self.score, "reasons": list(self.reasons)}


def judged(reasons: list[str] | set[str], *, hold_below: int, proof: dict | None = None) -> Assessment:
    """The assessment for these reasons: score, order, and whether it is held."""
    points = score(reasons)
    return Assessment(score=points, reasons=ordered(reasons), hold=points < hold_below, proof=dict(proof or {}))
