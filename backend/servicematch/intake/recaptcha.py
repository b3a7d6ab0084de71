"""Server-side reCAPTCHA v3 verification, on only while a secret is configured."""

from __future__ import annotations

import logging

import httpx

from servicematch.errors import ServiceMatchError
from servicematch.settings import Settings

log = logging.getLogger("servicematch.intake")

FAILED = "reCAPTCHA verification failed. Please try again."
EXPECTED_ACTION = "submit"
TIMEOUT_SECONDS = 5.0


def is_enabled(settings: Settings) -> bool:
    return bool(settings.recaptcha_secret_key)


def _refuse() -> ServiceMatchError:
    return ServiceMatchError(FAILED, fields={"recaptchaToken": FAILED}, status_code=400)


def verify(*, settings: Settings, token: str | None, remote_ip: str) -> float | None:
    """Ask the provider whether the token is genuine; refuse the submission when it is not.

    Returns the v3 score of a passed token (kept with the lead for the quality gate), or None when
    reCAPTCHA is off or gave no score."""
    if not is_enabled(settings):
        return None
    if not token:
        raise _refuse()
    try:
        response = httpx.post(
            settings.recaptcha_verify_url,
            data={"secret": settings.recaptcha_secret_key, "response": token, "remoteip": remote_ip},
            timeout=TIMEOUT_SECONDS,
        )
        response.raise_for_status()
        verdict = response.json()
    except (httpx.HTTPError, ValueError) as exc:
        # Closed on failure: while the provider cannot vouch for a visitor, bots would pass too.
        log.warning("reCAPTCHA verification could not be completed: %s", exc)
        raise _refuse() from exc
    score = verdict.get("score")
    action = verdict.get("action")
    if (
        verdict.get("success") is not True
        or (isinstance(score, int | float) and score < settings.recaptcha_min_score)
        or (action is not None and action != EXPECTED_ACTION)
    ):
        log.info("reCAPTCHA refused a submission: %s", verdict.get("error-codes") or verdict)
        raise _refuse()
    return float(score) if isinstance(score, int | float) and not isinstance(score, bool) else None
