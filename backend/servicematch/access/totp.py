"""The optional second factor: TOTP seeds encrypted with the data key, each code good once."""

from __future__ import annotations

import hmac
from typing import Protocol

import pyotp

from servicematch.kernel.clock import utcnow
from servicematch.kernel.crypto import cipher_for
from servicematch.settings import Settings


class HasTotp(Protocol):
    # The seed, encrypted; None while the second factor is off.
    totp_secret: bytes | None
    # The last accepted time step: a code is good once, not for its whole 30 seconds.
    totp_last_step: int | None


def new_seed() -> str:
    return pyotp.random_base32()


def sealed_seed(settings: Settings, seed: str, *, context: str) -> bytes:
    """The seed encrypted with the data key, bound to `context` (the account it belongs to)."""
    return cipher_for(settings).encrypt({"seed": seed}, lead_id=context)


def provisioning_uri(seed: str, *, name: str, issuer: str) -> str:
    """The otpauth:// URI an authenticator app reads."""
    return pyotp.TOTP(seed).provisioning_uri(name=name, issuer_name=issuer)


def code_matches(seed: str, code: str, *, after_step: int | None) -> int | None:
    """The time step `code` belongs to (one step of clock drift either way), if it is later than
    `after_step`; None when the code is wrong or used already."""
    code = (code or "").strip().replace(" ", "")
    if not code.isdigit() or len(code) != 6:
        return None
    totp = pyotp.TOTP(seed)
    now_step = totp.timecode(utcnow())
    for step in (now_step - 1, now_step, now_step + 1):
        if hmac.compare_digest(totp.generate_otp(step), code) and (after_step is None or step > after_step):
            return step
    return None


def verify_totp(settings: Settings, holder: HasTotp, code: str, *, context: str) -> bool:
    """True when the second factor is off, or `code` is current and not used before (it is then spent)."""
    if holder.totp_secret is None:
        return True
    seed = cipher_for(settings).decrypt(holder.totp_secret, lead_id=context)["seed"]
    step = code_matches(seed, code, after_step=holder.totp_last_step)
    if step is None:
        return False
    holder.totp_last_step = step
    return True
