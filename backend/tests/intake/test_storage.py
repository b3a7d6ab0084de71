"""What is stored with a lead: encrypted personal data, keyed hashes, consent evidence, flags."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from cryptography.exceptions import InvalidTag
from sqlalchemy import select, text, update
from sqlalchemy.orm import selectinload

from servicematch.intake.models import ConsentRecord, Lead
from servicematch.intake.payload import buyer_payload, decrypt_personal_data
from servicematch.kernel.crypto import cipher_for

from .payloads import CLICK, CONTACT, lead_form_payload, with_answer

SECRETS = (CONTACT["first"], CONTACT["last"], CONTACT["email"], CONTACT["phone"], CONTACT["address1"])


def submit(client, payload: dict, **headers: str) -> str:
    response = client.post("/api/submit-form", json=payload, headers=headers)
    assert response.status_code == 202, response.text
    return response.json()["leadId"]


def stored(app, lead_id: str) -> Lead:
    with app.state.session_factory() as session:
        query = select(Lead).options(selectinload(Lead.consent)).where(Lead.id == lead_id)
        return session.scalars(query).one()


def test_raw_columns_hold_no_personal_data(client, index, raw_engine):
    accident = index.find("auto-accident", "legal")
    free_text = next(d for d in accident.fields if d.type == "textarea")
    submit(client, with_answer(lead_form_payload(accident), free_text.mapping, "Hit by a red truck"))
    with raw_engine.connect() as connection:
        row = connection.execute(text("SELECT * FROM leads")).mappings().one()
    raw = b" ".join(value if isinstance(value, bytes) else str(value).encode() for value in row.values())
    for secret in (*SECRETS, "5125550142", "Hit by a red truck"):
        assert secret.encode() not in raw
        assert secret.lower().encode() not in raw.lower()


def test_the_sqlite_file_shows_no_plaintext_email_or_phone(client, app, index, settings):
    if not settings.is_sqlite:
        return
    submit(client, lead_form_payload(index.find("hvac", "services")))
    app.state.engine.dispose()
    database = Path(settings.database_url.removeprefix("sqlite:///"))
    dump = b"".join(path.read_bytes() for path in database.parent.glob(database.name + "*"))
    assert b"hvac" in dump  # the lead is in the file ...
    for secret in SECRETS:
        assert secret.encode() not in dump  # ... but none of the personal data is readable


def test_personal_data_decrypts_and_rebuilds_the_buyer_payload(client, app, index, settings):
    workers_comp = index.find("workers-comp", "legal")
    payload = lead_form_payload(workers_comp)
    lead = stored(app, submit(client, payload, **{"User-Agent": "Agent/1.0"}))
    personal = decrypt_personal_data(lead=lead, settings=settings)
    assert personal["contact"] == CONTACT
    rebuilt = buyer_payload(lead=lead, settings=settings)
    expected_consumer = {**payload["consumer"], "cq20": rebuilt["consumer"]["cq20"]}
    assert rebuilt["consumer"] == expected_consumer
    assert rebuilt["customquestions"] == {k: v for k, v in expected_consumer.items() if k.startswith("cq")}
    assert {k: rebuilt[k] for k in ("pid", "sid", "cid", "istest", "requestId")} == {
        "pid": 16, "sid": 143, "cid": 847, "istest": "N", "requestId": payload["requestId"]}
    assert rebuilt["click"] == {**CLICK, "ip": "testclient"}


def test_ciphertext_is_bound_to_its_lead(client, app, index, settings):
    first = stored(app, submit(client, lead_form_payload(index.find("hvac", "services"))))
    second = stored(app, submit(client, lead_form_payload(index.find("roofing", "services"))))
    second.personal_data = first.personal_data
    with pytest.raises(InvalidTag):
        decrypt_personal_data(lead=second, settings=settings)


def test_email_and_phone_hashes_find_repeats_without_decrypting(client, app, index, settings):
    first = stored(app, submit(client, lead_form_payload(index.find("hvac", "services"))))
    payload = with_answer(lead_form_payload(index.find("roofing", "services")), "email", "  MARIA.Garcia@Example.com ")
    second = stored(app, submit(client, with_answer(payload, "phone", "+1 (512) 555-0142")))
    assert first.email_hash == second.email_hash and first.phone_hash == second.phone_hash
    cipher = cipher_for(settings)
    assert first.email_hash == cipher.lookup_hash("email", "maria.garcia@example.com")
    assert first.phone_hash == cipher.lookup_hash("phone", "5125550142")
    assert first.phone_hash != hashlib.sha256(b"5125550142").hexdigest()


def test_consent_record_holds_the_evidence(client, app, index, settings):
    ssdi = index.find("ssdi", "insurance")
    before = datetime.now(UTC)
    lead = stored(app, submit(client, lead_form_payload(ssdi), **{"User-Agent": "Agent/2.0"}))
    consent = lead.consent
    shown = ssdi.tcpaText.replace("{sender name}", settings.brand_name)
    assert consent.consent_text == shown and "{sender name}" not in consent.consent_text
    assert consent.consent_text_sha256 == hashlib.sha256(shown.encode()).hexdigest()
    # The marketing-partners list published when the app started (catalog/partners.py).
    assert consent.partner_list_version == client.get("/api/marketing-partners").json()["version"]
    assert consent.partner_list_version != index.catalog.marketingPartners.version
    consented_at = consent.consented_at if consent.consented_at.tzinfo else consent.consented_at.replace(tzinfo=UTC)
    assert before - timedelta(seconds=1) <= consented_at <= datetime.now(UTC) + timedelta(seconds=1)
    assert consent.ip_address == "testclient"
    assert consent.user_agent == "Agent/2.0"
    assert consent.page_url == CLICK["domain_url"]
    assert consent.trustedform_cert_url == CLICK["trustedform"]
    assert consent.global_privacy_control is False and lead.do_not_sell is False


def test_global_privacy_control_marks_the_lead_do_not_sell(client, app, index):
    lead = stored(app, submit(client, lead_form_payload(index.find("hvac", "services")), **{"Sec-GPC": "1"}))
    assert lead.do_not_sell is True and lead.consent.global_privacy_control is True


def test_missing_trustedform_is_stored_as_absent(client, app, index):
    payload = lead_form_payload(index.find("hvac", "services"))
    payload["click"]["trustedform"] = ""
    assert stored(app, submit(client, payload)).consent.trustedform_cert_url is None


def test_the_same_phone_for_the_same_service_within_30_days_is_a_duplicate(client, app, index):
    hvac, roofing = index.find("hvac", "services"), index.find("roofing", "services")
    first = stored(app, submit(client, lead_form_payload(hvac)))
    again = stored(app, submit(client, with_answer(lead_form_payload(hvac), "email", "other@example.com")))
    elsewhere = stored(app, submit(client, lead_form_payload(roofing)))
    assert (first.is_duplicate, again.is_duplicate, elsewhere.is_duplicate) == (False, True, False)


def test_an_earlier_lead_older_than_30_days_is_not_a_duplicate(client, app, index):
    hvac = index.find("hvac", "services")
    first = submit(client, lead_form_payload(hvac))
    with app.state.session_factory() as session:
        session.execute(update(Lead).where(Lead.id == first).values(
            created_at=datetime.now(UTC) - timedelta(days=31)))
        session.commit()
    assert stored(app, submit(client, lead_form_payload(hvac))).is_duplicate is False


async def test_forwarded_for_is_believed_only_from_a_trusted_proxy(app, index, settings):
    hvac = index.find("hvac", "services")
    app.state.settings = settings.model_copy(update={"trusted_proxies": "10.0.0.0/8"})
    headers = {"X-Forwarded-For": "198.51.100.7, 203.0.113.9, 10.0.0.3"}
    seen = {}
    for peer in ("10.0.0.2", "192.0.2.50"):
        transport = httpx.ASGITransport(app=app, client=(peer, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://intake.test") as client:
            response = await client.post("/api/submit-form", json=lead_form_payload(hvac), headers=headers)
        seen[peer] = stored(app, response.json()["leadId"]).consent.ip_address
    # Behind our proxy: the last address our proxies did not add. Direct: the socket peer.
    assert seen == {"10.0.0.2": "203.0.113.9", "192.0.2.50": "192.0.2.50"}


def test_each_lead_row_commits_with_exactly_one_consent_record(client, app, index):
    for slug in ("hvac", "roofing", "gutters"):
        submit(client, lead_form_payload(index.find(slug, "services")))
    with app.state.session_factory() as session:
        leads = set(session.scalars(select(Lead.id)))
        consented = list(session.scalars(select(ConsentRecord.lead_id)))
    assert sorted(consented) == sorted(leads) and len(leads) == 3
