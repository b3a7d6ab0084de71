"""`servicematch keys status` and `keys rotate`: every value under an earlier key, or written before key
ids, is re-encrypted under the current key (leads, privacy corrections, TOTP seeds); what each earlier
key still does is said, and only a key that made nothing left is said to be droppable."""

from __future__ import annotations

from pathlib import Path

import pyotp
import pytest
from cli_support import shell_cli
from console_fixtures import cheapest_password_hashing  # noqa: F401 (an autouse fixture)
from encrypted_rows import insert_leads, new_key, raw, seal, values
from lead_payloads import hvac_payload
from sqlalchemy import select

from servicematch.console import accounts as operators
from servicematch.console.models import Operator
from servicematch.delivery.models import Provider
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.kernel.crypto import cipher_for, key_id_of
from servicematch.ops.key_commands import ENCRYPTED_COLUMNS, keys
from servicematch.portal.accounts import PROVIDER_ACCOUNTS
from servicematch.portal.models import ProviderAccount
from servicematch.privacy.models import PrivacyRequest
from servicematch.settings import Settings

FIRST, SECOND, THIRD = new_key(), new_key(), new_key()
PASSWORD = "correct horse battery staple"


def named(key: str) -> str:
    return key_id_of(raw(key)).hex()


@pytest.fixture
def settings(database_url: str, static_dir: Path) -> Settings:
    return Settings(environment="test", database_url=database_url, static_dir=static_dir, secret_key="test-secret-key",
                    data_key=FIRST, worker_enabled=False, submit_rate_limit=10_000)


def under(settings: Settings, current: str, *earlier: str) -> Settings:
    return settings.model_copy(update={"data_key": current, "data_keys_old": ",".join(earlier)})


def run(monkeypatch, settings: Settings, current: str, *args: str, earlier: tuple[str, ...] = ()):
    with shell_cli(monkeypatch, settings, command=keys,
                   env={"DATA_KEY": current, "DATA_KEYS_OLD": ",".join(earlier)}) as cli:
        return cli(*args)


def every_value(app) -> list[bytes]:
    with app.state.engine.connect() as connection:
        return [bytes(value) for column in ENCRYPTED_COLUMNS
                for value in connection.scalars(select(column.value).where(column.value.is_not(None)))]


def stored_with_first_key(app, client, settings: Settings) -> dict:
    """Three leads through the API, two written before key ids, a correction, an operator's TOTP
    seed and a provider account's pending one: all under FIRST."""
    for number in range(3):
        assert client.post("/api/submit-form", json=hvac_payload(app.state.catalog, phone=f"51255501{number:02d}")
                           ).status_code == 202
    insert_leads(app.state.engine, FIRST, 2, keyed=False, lookup=cipher_for(settings))
    with app.state.session_factory() as session:
        operators.add_operator(session, email="admin@example.com", role="admin", password=PASSWORD)
        session.flush()
        operator_seed = pyotp.parse_uri(operators.enable_totp(session, settings, "admin@example.com")).secret
        provider = Provider(name="Cool Air LLC", contact_email="office@coolair.example", services=["hvac"], states=["TX"])
        session.add(provider)
        session.flush()
        account = ProviderAccount(email="pro@coolair.example", provider_id=provider.id)
        session.add(account)
        session.flush()
        provider_seed, _ = PROVIDER_ACCOUNTS.start_totp(settings, account)
        session.add(PrivacyRequest(id="request-1", kind="correct", channel="web", contact_key="email:x", due_at=utcnow(),
                                   details=cipher_for(settings).encrypt({"correction": "Maria G."},
                                                                        lead_id="privacy-request:request-1")))
        session.commit()
    personal = {lead_id: cipher_for(settings).decrypt(blob, lead_id=lead_id)
                for lead_id, blob in values(app.state.engine).items()}
    return {"leads": personal, "operator_seed": operator_seed, "provider_seed": provider_seed,
            "provider_account": account.id}


def test_rotate_re_encrypts_everything_and_the_earlier_key_reads_nothing_after(app, client, settings, monkeypatch):
    before = stored_with_first_key(app, client, settings)
    status = run(monkeypatch, settings, SECOND, "status", earlier=(FIRST,))
    assert status.exit_code == 0, status.output
    assert f"leads.personal_data: 5 values: 3 under {named(FIRST)}, 2 written before key ids" in status.output
    assert f"{named(FIRST)} (SERVICEMATCH_DATA_KEYS_OLD entry 1) still encrypts 6 values" in status.output

    rotated = run(monkeypatch, settings, SECOND, "rotate", "--batch-size", "2", earlier=(FIRST,))
    assert rotated.exit_code == 0, rotated.output
    lines = rotated.output.splitlines()
    assert lines[0].startswith(f"re-encrypting under data key {named(SECOND)}: 8 values to do")
    assert lines[-1] == (f"earlier keys: {named(FIRST)} (SERVICEMATCH_DATA_KEYS_OLD entry 1) encrypts nothing any "
                         "more; keep it, last in SERVICEMATCH_DATA_KEYS_OLD: it keys the lookup hashes")
    assert {value[:5] for value in every_value(app)} == {cipher_for(under(settings, SECOND)).header}

    # The new key alone reads every value: nothing needs the earlier key to decrypt any more.
    alone = under(settings, SECOND)
    assert {lead_id: cipher_for(alone).decrypt(blob, lead_id=lead_id)
            for lead_id, blob in values(app.state.engine).items()} == before["leads"]
    with app.state.session_factory() as session:
        operator = session.scalars(select(Operator)).one()
        assert operators.verify_totp(alone, operator, pyotp.TOTP(before["operator_seed"]).now())
        account = session.get(ProviderAccount, before["provider_account"])
        PROVIDER_ACCOUNTS.confirm_totp(alone, account, pyotp.TOTP(before["provider_seed"]).now())
        correction = session.get(PrivacyRequest, "request-1").details
        assert cipher_for(alone).decrypt(correction, lead_id="privacy-request:request-1") == {"correction": "Maria G."}
        # Lookup hashes did not change: a repeat of the first lead is still recognised.
        leads = session.scalars(select(Lead)).all()
    rotated_keys = cipher_for(under(settings, SECOND, FIRST))
    assert all(lead.phone_hash == rotated_keys.lookup_hash("phone", before["leads"][lead.id]["contact"]["phone"])
               for lead in leads)

    again = run(monkeypatch, settings, SECOND, "rotate", earlier=(FIRST,))
    assert "0 values to do" in again.output.splitlines()[0] and again.output.splitlines()[-1] == lines[-1]


def test_after_a_second_rotation_the_middle_key_can_be_dropped(app, settings, monkeypatch):
    insert_leads(app.state.engine, SECOND, 4, lookup=cipher_for(settings))
    rotated = run(monkeypatch, settings, THIRD, "rotate", earlier=(SECOND, FIRST))
    assert rotated.output.splitlines()[-1] == (
        f"earlier keys: {named(SECOND)} (SERVICEMATCH_DATA_KEYS_OLD entry 1) encrypts nothing any more: it can be "
        f"dropped from SERVICEMATCH_DATA_KEYS_OLD; {named(FIRST)} (SERVICEMATCH_DATA_KEYS_OLD entry 2) encrypts "
        "nothing any more; keep it, last in SERVICEMATCH_DATA_KEYS_OLD: it keys the lookup hashes")
    status = run(monkeypatch, settings, THIRD, "status", earlier=(FIRST,)).output
    assert f"leads.personal_data: 4 values: 4 under {named(THIRD)} (current)" in status
    assert (f"lookup hashes: keyed by the first data key ever used, {named(FIRST)} (SERVICEMATCH_DATA_KEYS_OLD entry "
            "1); the 4 newest leads with a phone number agree") in status


def test_status_says_when_the_lookup_hashes_were_made_with_another_key(app, settings, monkeypatch):
    insert_leads(app.state.engine, SECOND, 3, lookup=cipher_for(settings))
    dropped = run(monkeypatch, settings, SECOND, "status").output
    assert ("but only 0 of the 3 newest leads with a phone number agree: the stored ones were made with a key that "
            "is not configured: put the first data key ever used back, last in SERVICEMATCH_DATA_KEYS_OLD") in dropped
    misordered = run(monkeypatch, settings, SECOND, "status", earlier=(FIRST, THIRD)).output
    assert (f"the stored ones were made with {named(FIRST)} (SERVICEMATCH_DATA_KEYS_OLD entry 1): list it last in "
            "SERVICEMATCH_DATA_KEYS_OLD") in misordered


def test_values_no_configured_key_reads_are_named_and_left_alone(app, settings, monkeypatch):
    readable = insert_leads(app.state.engine, FIRST, 3)
    [lost] = insert_leads(app.state.engine, THIRD, 1)
    rotated = run(monkeypatch, settings, SECOND, "rotate", earlier=(FIRST,))
    assert rotated.exit_code == 1
    assert f"leads.personal_data: 1 value no configured key reads (row ids {lost})" in rotated.output
    last = rotated.output.splitlines()[-1]
    assert last.startswith(f"earlier keys: 1 value under {named(THIRD)}, which is not configured, cannot be read")
    stored = values(app.state.engine)
    assert stored[lost] == seal_header(THIRD) + stored[lost][5:]
    assert all(stored[lead_id][:5] == seal_header(SECOND) for lead_id in readable)


def seal_header(key: str) -> bytes:
    return seal(key, {}, "x")[:5]


def test_status_with_one_key_and_nothing_stored(app, settings, monkeypatch):
    status = run(monkeypatch, settings, FIRST, "status")
    assert status.exit_code == 0
    assert f"data keys: {named(FIRST)} (SERVICEMATCH_DATA_KEY)" in status.output
    assert "leads.personal_data: no values" in status.output
    assert f"no earlier data key is configured; the current key is {named(FIRST)}" in status.output
    assert "secret keys: SERVICEMATCH_SECRET_KEY only" in status.output
