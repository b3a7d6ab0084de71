"""Every encrypted value names the key that made it; earlier keys still read what they made; values
from before key ids still read; lookup hashes stay keyed by the first data key; malformed earlier
keys are refused at start."""

from __future__ import annotations

import base64

import pytest
from cryptography.exceptions import InvalidTag
from encrypted_rows import new_key, raw, seal
from pydantic import ValidationError

from servicematch.kernel.crypto import (
    HEADER_BYTES,
    KEYED_FORMAT,
    DataKeyError,
    UnknownDataKey,
    cipher_for,
    key_id_of,
    made_by,
)
from servicematch.kernel.keys import checking_keys, signing_key
from servicematch.settings import Settings, SettingsError, load_settings

FIRST, SECOND, THIRD = new_key(), new_key(), new_key()
DATA = {"contact": {"phone": "5125550142"}, "answers": {}}


def keys(current: str, *earlier: str) -> Settings:
    return Settings(data_key=current, data_keys_old=",".join(earlier))


def test_a_new_value_names_its_key_and_reads_back():
    cipher = cipher_for(keys(FIRST))
    blob = cipher.encrypt(DATA, lead_id="lead-1")
    assert blob[:HEADER_BYTES] == KEYED_FORMAT + key_id_of(raw(FIRST)) == cipher.header
    assert made_by(blob) == key_id_of(raw(FIRST))
    assert cipher.decrypt(blob, lead_id="lead-1") == DATA


def test_after_a_rotation_the_earlier_key_reads_what_it_made_and_the_new_key_writes():
    before = cipher_for(keys(FIRST)).encrypt(DATA, lead_id="lead-1")
    rotated = cipher_for(keys(SECOND, FIRST))
    assert rotated.decrypt(before, lead_id="lead-1") == DATA
    after = rotated.encrypt(DATA, lead_id="lead-1")
    assert made_by(after) == key_id_of(raw(SECOND))
    assert cipher_for(keys(SECOND)).decrypt(after, lead_id="lead-1") == DATA


@pytest.mark.parametrize("made_with", [FIRST, SECOND], ids=["current key", "earlier key"])
def test_a_value_written_before_key_ids_reads_with_the_current_or_an_earlier_key(made_with):
    old_format = seal(made_with, DATA, "lead-1", keyed=False)
    assert old_format[:1] == b"\x01" and made_by(old_format) is None
    rotated = cipher_for(keys(SECOND, FIRST))
    assert rotated.decrypt(old_format, lead_id="lead-1") == DATA
    resealed = rotated.reseal(old_format, "lead-1")
    assert made_by(resealed) == key_id_of(raw(SECOND))
    assert cipher_for(keys(SECOND)).decrypt(resealed, lead_id="lead-1") == DATA


def test_a_value_of_a_key_not_configured_is_refused_by_name():
    blob = cipher_for(keys(FIRST)).encrypt(DATA, lead_id="lead-1")
    with pytest.raises(UnknownDataKey, match=f"{key_id_of(raw(FIRST)).hex()}.*SERVICEMATCH_DATA_KEYS_OLD") as error:
        cipher_for(keys(SECOND, THIRD)).decrypt(blob, lead_id="lead-1")
    # Readers that catch InvalidTag (a value that cannot be decrypted) go on catching it.
    assert isinstance(error.value, InvalidTag)


def test_an_old_format_value_no_key_reads_and_a_value_moved_to_another_row_are_refused():
    cipher = cipher_for(keys(SECOND, THIRD))
    with pytest.raises(InvalidTag):
        cipher.decrypt(seal(FIRST, DATA, "lead-1", keyed=False), lead_id="lead-1")
    with pytest.raises(InvalidTag):
        cipher.decrypt(cipher.encrypt(DATA, lead_id="lead-1"), lead_id="lead-2")
    with pytest.raises(DataKeyError, match="unknown format"):
        cipher.decrypt(b"\x07" + cipher.encrypt(DATA, lead_id="lead-1")[1:], lead_id="lead-1")


def test_a_changed_key_id_does_not_open_the_value_with_another_key():
    rotated = cipher_for(keys(SECOND, FIRST))
    blob = cipher_for(keys(FIRST)).encrypt(DATA, lead_id="lead-1")
    forged = KEYED_FORMAT + key_id_of(raw(SECOND)) + blob[HEADER_BYTES:]
    with pytest.raises(InvalidTag):
        rotated.decrypt(forged, lead_id="lead-1")


def test_lookup_hashes_stay_keyed_by_the_first_data_key_through_rotations():
    first = cipher_for(keys(FIRST)).lookup_hash("phone", "5125550142")
    assert cipher_for(keys(SECOND, FIRST)).lookup_hash("phone", "5125550142") == first
    assert cipher_for(keys(THIRD, SECOND, FIRST)).lookup_hash("phone", "5125550142") == first
    assert cipher_for(keys(SECOND)).lookup_hash("phone", "5125550142") != first


@pytest.mark.parametrize("environment", ["production", "development"])
@pytest.mark.parametrize("earlier", ["not base64!", base64.b64encode(b"short").decode(), f"{FIRST},,oops"],
                         ids=["not base64", "short", "an empty entry"])
def test_a_malformed_earlier_data_key_is_refused_at_start(environment, earlier):
    with pytest.raises(ValidationError, match="data_keys_old"):
        Settings(environment=environment, data_key=SECOND, data_keys_old=earlier)


def test_the_refusal_names_the_entry_never_the_key():
    with pytest.raises(SettingsError) as error:
        load_settings(data_key=SECOND, data_keys_old=f"{FIRST}, secret-looking-text")
    [line] = error.value.problems
    assert line.startswith("SERVICEMATCH_DATA_KEYS_OLD: entry 2 is not valid base64")
    assert "secret-looking-text" not in line and FIRST not in line


def test_well_formed_earlier_keys_are_accepted_with_spaces():
    settings = Settings(data_key=THIRD, data_keys_old=f" {SECOND} , {FIRST} ")
    assert cipher_for(settings).decrypt(cipher_for(keys(FIRST)).encrypt(DATA, lead_id="l"), lead_id="l") == DATA


def test_the_current_secret_signs_and_every_listed_secret_is_accepted():
    rotated = Settings(secret_key="new-" * 10, secret_keys_old="old-" * 10 + ", older-" * 1)
    before = Settings(secret_key="old-" * 10)
    assert signing_key(rotated, "privacy.links") == Settings(secret_key="new-" * 10).derive_key("privacy.links")
    assert checking_keys(rotated, "privacy.links")[1] == before.derive_key("privacy.links")
    assert len(checking_keys(rotated, "privacy.links")) == 3
