"""The gate on leads stored through the real intake API: its one read (velocity, the tab's first
funnel event), its verdict, the third parties through their stand-ins, and what routing records."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import insert, update
from statements_run import statements_run

from servicematch.events.models import FunnelEvent
from servicematch.intake.models import QUALITY_HELD, QUALITY_PASSED, ConsentRecord, Lead
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.quality import reasons as r
from servicematch.quality.gate import QualityGate, consent_proof_fields, quality_summary, record
from servicematch.quality.history import History, read_histories, read_history
from servicematch.quality.trustedform import CertificateCheck
from servicematch.quality.twilio_lookup import PhoneLookup

from .gate_fixtures import (  # noqa: F401 (fixtures)
    AUSTIN_PHONE,
    TAB_ID,
    index,
    lead_body,
    settings,
    stored_lead,
    submit,
    trustedform,
    twilio,
)
from .trustedform_standin import API_KEY
from .twilio_standin import ACCOUNT_SID, AUTH_TOKEN, line


def seen_tab(app, *, seconds_ago: float, tab_id: str = TAB_ID, service: str = "hvac", before=None) -> None:
    """The page's funnel event as the events room stores it, `seconds_ago` before now (or `before`)."""
    with app.state.session_factory() as session:
        session.execute(insert(FunnelEvent), [{
            "at": as_utc(before or utcnow()) - timedelta(seconds=seconds_ago), "type": "page_view", "route_type": "form",
            "vertical": "services", "service": service, "step": 0, "field": "", "answer": "", "tab_id": tab_id,
            "source": "direct"}])
        session.commit()


def history_of(app, settings, lead_id: str) -> History:  # noqa: F811 (the fixtures imported above)
    lead = stored_lead(app, lead_id)
    with app.state.session_factory() as session:
        return read_history(session, lead, settings)


def assess(app, settings, lead_id: str, gate: QualityGate | None = None, **options):  # noqa: F811
    gate = gate or QualityGate(settings)
    lead = stored_lead(app, lead_id)
    with app.state.session_factory() as session:
        history = read_history(session, lead, settings)
    return lead, gate.assess(lead, history, **options)


def test_a_person_passes_with_100(client, app, index, settings):  # noqa: F811 (the fixtures imported above)
    seen_tab(app, seconds_ago=49)
    lead, assessment = assess(app, settings, submit(client, lead_body(index)))
    assert (assessment.score, assessment.reasons, assessment.hold, assessment.proof) == (100, [], False, {})
    assert history_of(app, settings, lead.id) == History(first_seen_at=history_of(app, settings, lead.id).first_seen_at)


def test_a_bot_is_held(client, app, index, settings):  # noqa: F811 (the fixtures imported above)
    body = lead_body(index, phone="5125550142", email="info@mailinator.com", seconds=1.2, honeypot="x",
                     state="CA", zip="90012", city="Los Angeles", address1="200 N Spring St")
    _, assessment = assess(app, settings, submit(client, body))
    assert assessment.hold and assessment.score == 0
    assert assessment.reasons == [r.HONEYPOT, r.FORM_TOO_FAST, r.PHONE_FAKE, r.EMAIL_DISPOSABLE,
                                  r.PHONE_AREA_STATE, r.EMAIL_ROLE, r.FORM_UNCONFIRMED]


def test_velocity_counts_earlier_leads_in_the_window_across_services(client, app, index, settings):  # noqa: F811
    submit(client, lead_body(index, email="a@example.com", address1="1 Oak St"))
    submit(client, lead_body(index, email="b@example.com", address1="2 Oak St"))
    from intake.payloads import lead_form_payload

    roofing = {**lead_form_payload(index.find("roofing", "services"), phone=AUSTIN_PHONE, email="c@example.com",
                                   address1="3 Oak St"),
               "formSignals": {"secondsOnForm": 40.0, "tabId": TAB_ID}}
    submit(client, roofing)
    fourth = submit(client, lead_body(index, email="d@example.com", address1="3 Oak St"))
    history = history_of(app, settings, fourth)
    assert (history.phone_leads, history.email_leads, history.address_leads, history.ip_leads) == (3, 0, 1, 3)
    _, assessment = assess(app, settings, fourth)
    assert r.VELOCITY_PHONE in assessment.reasons and r.VELOCITY_IP in assessment.reasons
    assert r.VELOCITY_ADDRESS not in assessment.reasons


def test_leads_before_the_window_do_not_count(client, app, index, settings):  # noqa: F811 (the fixtures imported above)
    earlier = [submit(client, lead_body(index)) for _ in range(3)]
    long_ago = utcnow() - timedelta(minutes=settings.quality_velocity_window_minutes + 1)
    with app.state.session_factory() as session:
        session.execute(update(Lead).where(Lead.id.in_(earlier)).values(created_at=long_ago))
        session.execute(update(ConsentRecord).where(ConsentRecord.lead_id.in_(earlier)).values(consented_at=long_ago))
        session.commit()
    latest = submit(client, lead_body(index))
    history = history_of(app, settings, latest)
    assert (history.phone_leads, history.email_leads, history.address_leads, history.ip_leads) == (0, 0, 0, 0)
    # The earliest lead's own history holds none of the later ones either: only leads before it count.
    assert history_of(app, settings, earlier[0]).phone_leads == 2  # the other two, moved to the same instant


def test_the_tabs_first_event_for_this_service_is_the_servers_clock(client, app, index, settings):  # noqa: F811
    lead_id = submit(client, lead_body(index, seconds=40.0))
    created = stored_lead(app, lead_id).created_at
    seen_tab(app, seconds_ago=7200, before=created)  # past the lookback
    seen_tab(app, seconds_ago=300, service="roofing", before=created)  # another service
    seen_tab(app, seconds_ago=200, tab_id="another-tab-0001", before=created)  # another tab
    seen_tab(app, seconds_ago=-5, before=created)  # after the lead (the thank-you page's)
    seen_tab(app, seconds_ago=3, before=created)
    seen_tab(app, seconds_ago=1, before=created)
    assert history_of(app, settings, lead_id).first_seen_at == as_utc(created) - timedelta(seconds=3)
    _, assessment = assess(app, settings, lead_id)
    assert assessment.reasons == [r.FORM_TIMING_MISMATCH, r.FORM_TOO_FAST] and assessment.hold


def test_a_round_of_leads_reads_its_histories_in_one_statement_each_as_if_alone(client, app, index, settings):  # noqa: F811
    first = submit(client, lead_body(index, email="a@example.com", address1="1 Oak St"))
    seen_tab(app, seconds_ago=30)
    second = submit(client, lead_body(index, email="b@example.com", address1="1 Oak St"))
    third = submit(client, lead_body(index, phone="5125550177", email="c@example.com", address1="9 Elm St"))
    leads = [stored_lead(app, lead_id) for lead_id in (third, first, second)]
    with statements_run(app.state.engine) as statements, app.state.session_factory() as session:
        together = read_histories(session, leads, settings)
    assert len(statements) == 1
    assert together == {lead_id: history_of(app, settings, lead_id) for lead_id in (first, second, third)}
    assert (together[second].phone_leads, together[second].address_leads, together[second].ip_leads) == (1, 1, 1)
    assert (together[third].phone_leads, together[third].address_leads) == (0, 0)
    assert together[second].first_seen_at is not None


@pytest.fixture
def third_parties(settings, twilio, trustedform):  # noqa: F811 (fixtures imported above)
    return settings.model_copy(update={
        "twilio_account_sid": ACCOUNT_SID, "twilio_auth_token": AUTH_TOKEN, "twilio_lookup_base": twilio.base_url,
        "trustedform_api_key": API_KEY, "trustedform_api_base": trustedform.base_url})


def patient_gate(settings) -> QualityGate:  # noqa: F811 (the fixtures imported above)
    """The gate with timeouts a loaded test machine cannot hit (the timeouts have tests of their own)."""
    return QualityGate(settings, phone_lookup=PhoneLookup(settings, timeout_seconds=15),
                       certificates=CertificateCheck(settings, timeout_seconds=15))


def certified_body(index, trustedform, **options) -> dict:  # noqa: F811
    body = lead_body(index, **options)
    consent = index.tcpa_text(index.find("hvac", "services"), "ServiceMatch")
    body["click"]["trustedform"] = trustedform.issue(page_url=body["click"]["domain_url"],
                                                     page_text=f"<form>...<p>{consent}</p></form>",
                                                     email=body["consumer"]["email"], phone=body["consumer"]["phone"])
    return body


def test_the_third_parties_verify_and_record(client, app, index, third_parties, twilio, trustedform):  # noqa: F811
    seen_tab(app, seconds_ago=49)
    twilio.lines[f"+1{AUSTIN_PHONE}"] = line("nonFixedVoip", "Bandwidth/13 - Bandwidth.com - SVR")
    gate = patient_gate(third_parties)
    try:
        lead, assessment = assess(app, third_parties, submit(client, certified_body(index, trustedform)), gate)
    finally:
        gate.close()
    assert (assessment.score, assessment.reasons, assessment.hold) == (70, [r.PHONE_VOIP], False)
    assert assessment.proof["trustedFormVerified"] is True and assessment.proof["trustedFormRetained"]
    assert list(trustedform.retained.values()) == [{"reference": lead.id, "vendor": "ServiceMatch"}]
    record(lead, assessment)
    assert (lead.quality_score, lead.quality_reasons, lead.quality_status) == (70, [r.PHONE_VOIP], QUALITY_PASSED)
    assert quality_summary(lead) == {"score": 70, "reasons": [r.PHONE_VOIP]}
    assert consent_proof_fields(lead) == assessment.proof


def test_a_failed_certificate_holds_the_lead(client, app, index, third_parties, trustedform):  # noqa: F811
    seen_tab(app, seconds_ago=49)
    body = certified_body(index, trustedform)
    body["click"]["trustedform"] = f"{trustedform.base_url}/{'0' * 40}"  # TrustedForm never issued it
    gate = patient_gate(third_parties)
    try:
        lead, assessment = assess(app, third_parties, submit(client, body), gate)
    finally:
        gate.close()
    assert (assessment.reasons, assessment.hold) == ([r.TRUSTEDFORM_FAILED], True)
    record(lead, assessment)
    assert lead.quality_status == QUALITY_HELD
    assert consent_proof_fields(lead)["trustedFormProblem"] == "TrustedForm has no such certificate"


def test_without_third_parties_nothing_is_asked(client, app, index, third_parties, twilio, trustedform):  # noqa: F811
    seen_tab(app, seconds_ago=49)
    gate = patient_gate(third_parties)
    try:
        _, assessment = assess(app, third_parties, submit(client, certified_body(index, trustedform)), gate,
                               third_parties=False)
    finally:
        gate.close()
    assert (assessment.score, assessment.proof) == (100, {})
    assert (twilio.calls, trustedform.calls) == ([], [])


def test_before_the_gate_ran_there_is_nothing_to_send(client, app, index):  # noqa: F811 (the fixtures imported above)
    lead = stored_lead(app, submit(client, lead_body(index)))
    assert (quality_summary(lead), consent_proof_fields(lead)) == (None, {})
