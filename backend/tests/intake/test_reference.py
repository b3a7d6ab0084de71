"""Each lead's reference: made with the lead, in the submit answer as the consumer reads it, unique,
and a reference already taken is replaced rather than refused."""

from __future__ import annotations

import itertools
from datetime import date

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from servicematch.intake import service
from servicematch.intake.checks import check_lead_form
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.models import Lead
from servicematch.intake.schemas import LeadFormSubmission
from servicematch.kernel.references import ALPHABET

from .payloads import lead_form_payload


@pytest.fixture
def settings(settings, request):
    """The batched lead store unless a test asks for another (SERVICEMATCH_LEAD_STORE)."""
    return settings.model_copy(update={"lead_store": getattr(request, "param", "batched")})


def stored_references(app) -> dict[str, str]:
    with app.state.session_factory() as session:
        return dict(session.execute(select(Lead.request_id, Lead.reference)).all())


def test_the_submit_answer_gives_the_reference_as_shown_and_a_status_token(client, app, index):
    config = index.find("hvac", "services")
    answers = [client.post("/api/submit-form", json=lead_form_payload(config, phone=f"51255501{n:02d}")).json()
               for n in range(2)]
    stored = stored_references(app)
    for answer in answers:
        reference = answer["reference"]
        assert reference[4] == "-" and len(reference) == 9 and set(reference.replace("-", "")) <= set(ALPHABET)
        assert stored[answer["requestId"]] == reference.replace("-", "")
        assert len(answer["statusToken"]) >= 40 and answer["providers"] == []
    assert answers[0]["reference"] != answers[1]["reference"]
    assert answers[0]["statusToken"] != answers[1]["statusToken"]


def test_the_database_refuses_a_second_lead_with_the_same_reference(app, client, index):
    client.post("/api/submit-form", json=lead_form_payload(index.find("hvac", "services")))
    with app.state.session_factory() as session:
        lead = session.scalars(select(Lead)).one()
        twin = {column.key: getattr(lead, column.key) for column in Lead.__table__.columns if column.key != "source"}
        twin.update(id="another-lead", request_id="another-request")
        with pytest.raises(IntegrityError):
            session.execute(Lead.__table__.insert(), [twin])
            session.commit()


@pytest.mark.parametrize("settings", ["batched", "simple"], indirect=True)
def test_a_reference_already_taken_is_replaced_and_the_lead_stored(app, client, index, monkeypatch):
    config = index.find("hvac", "services")
    first = client.post("/api/submit-form", json=lead_form_payload(config, phone="5125550101")).json()
    taken = first["reference"].replace("-", "")
    fresh = "ZZZZ" + ("9999" if taken != "ZZZZ9999" else "8888")
    made = itertools.chain([taken, taken], itertools.repeat(fresh))
    monkeypatch.setattr(service, "new_reference", lambda: next(made))

    second = client.post("/api/submit-form", json=lead_form_payload(config, phone="5125550102"))

    assert second.status_code == 202, second.text
    assert second.json()["reference"] == f"{fresh[:4]}-{fresh[4:]}"
    assert stored_references(app) == {first["requestId"]: taken, second.json()["requestId"]: fresh}


def test_leads_stored_together_never_share_a_reference(app, index, settings, monkeypatch):
    config = index.find("hvac", "services")
    transactions = app.state.lead_store.transactions
    made = itertools.chain(["SAME0000", "SAME0000"], (f"NEW{n:05d}" for n in itertools.count()))
    monkeypatch.setattr(service, "new_reference", lambda: next(made))
    batch = []
    for n in range(2):
        payload = lead_form_payload(config, phone=f"51255502{n:02d}")
        checked = check_lead_form(index=index, service=config, today=date.today(),
                                  submission=LeadFormSubmission.model_validate(payload))
        lead = service.build_lead(settings=settings, checked=checked, request_id=payload["requestId"],
                                  request_hash=f"hash-{n}", is_test=False, click={}, do_not_sell=False)
        batch.append(service.NewLead(lead=lead, evidence=ConsentEvidence(
            ip_address="203.0.113.7", user_agent="pytest", page_url="", trustedform_cert_url="",
            global_privacy_control=False)))

    transactions.store_together(batch)

    assert sorted(stored_references(app).values()) == ["NEW00000", "SAME0000"]
