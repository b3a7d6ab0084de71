"""Keys derived from SERVICEMATCH_SECRET_KEY: stable per purpose, distinct across purposes and secrets."""

from __future__ import annotations

import pytest

from servicematch.kernel.keys import KEY_BYTES, derive_key
from servicematch.settings import Settings


def test_the_same_secret_and_purpose_give_the_same_key():
    settings = Settings(secret_key="s" * 40)
    assert settings.derive_key("signed-links") == Settings(secret_key="s" * 40).derive_key("signed-links")
    assert len(settings.derive_key("signed-links")) == KEY_BYTES


def test_purposes_and_secrets_get_unrelated_keys():
    keys = {derive_key("s" * 40, "signed-links"), derive_key("s" * 40, "csrf"), derive_key("t" * 40, "csrf")}
    assert len(keys) == 3
    assert b"s" * 40 not in keys


def test_the_key_matches_hkdf_sha256_of_rfc_5869():
    # RFC 5869's construction, recomputed with hmac: a change of algorithm, salt or info shows here.
    import hashlib
    import hmac

    from servicematch.kernel.keys import SALT

    prk = hmac.new(SALT, b"k" * 40, hashlib.sha256).digest()
    okm = hmac.new(prk, b"csrf" + b"\x01", hashlib.sha256).digest()
    assert derive_key("k" * 40, "csrf") == okm


def test_a_key_needs_a_purpose():
    with pytest.raises(ValueError, match="purpose"):
        derive_key("s" * 40, "")
