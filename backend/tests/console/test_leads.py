"""Lead search through the reference, requestId and the keyed lookup hashes, paging, the lead page and
the CSV export."""

from __future__ import annotations

import csv
import hashlib
import io

from console_api_support import hvac_payload, move_back, submit
from sqlalchemy import event, select

from servicematch.console import leads
from servicematch.console.models import AuditEntry
from servicematch.intake.models import Lead
from servicematch.intake.payload import auction_post_payload
from servicematch.kernel import crypto
from servicematch.kernel.clock import utcnow
from servicematch.privacy.actions import revoke
from servicematch.privacy.models import LeadRevocation
from servicematch.routing.stage import route_pending


def _submit(client, app, **contact) -> dict:
    payload = hvac_payload(app.state.catalog, **contact)
    answer = client.post("/api/submit-form", json=payload)
    assert answer.status_code == 202, answer.text
    route_pending(session_factory=app.state.session_factory, settings=app.state.settings)  # as the worker does
    return payload


def test_search_finds_by_phone_email_or_request_id_without_decrypting_rows(admin, app, monkeypatch):
    maria = _submit(admin, app)
    _submit(admin, app, phone="5125550177", email="ann.lee@example.com")
    decrypted = []
    real = crypto.DataCipher.decrypt
    monkeypatch.setattr(crypto.DataCipher, "decrypt", lambda self, blob, lead_id: decrypted.append(lead_id)
                        or real(self, blob, lead_id=lead_id))
    for q in ("(512) 555-0142", "+1 512 555 0142", "MARIA.GARCIA@example.com ", maria["requestId"]):
        items = admin.get("/api/console/leads", params={"q": q}).json()["items"]
        assert [i["requestId"] for i in items] == [maria["requestId"]], q
    # Only the one row shown per search was decrypted, never the other lead.
    assert len(set(decrypted)) == 1
    assert admin.get("/api/console/leads", params={"q": "5125550100"}).json()["items"] == []


def test_search_finds_by_the_reference_the_consumer_quotes_with_or_without_dash_in_any_case(admin, app):
    _submit(admin, app, phone="5125550177", email="ann.lee@example.com")
    payload = hvac_payload(app.state.catalog)
    reference = admin.post("/api/submit-form", json=payload).json()["reference"]
    assert len(reference) == 9 and reference[4] == "-"
    plain = reference.replace("-", "")
    for q in (reference, plain, plain.lower(), f" {reference.lower()} ", f"{plain[:4]} {plain[4:]}"):
        items = admin.get("/api/console/leads", params={"q": q}).json()["items"]
        assert [(i["requestId"], i["reference"]) for i in items] == [(payload["requestId"], reference)], q
    other = plain[:-1] + ("0" if plain[-1] != "0" else "1")
    assert admin.get("/api/console/leads", params={"q": other}).json()["items"] == []


def test_filters_and_cursor_paging(admin, app):
    for n in range(5):
        _submit(admin, app, phone=f"51255501{n:02d}")
    first = admin.get("/api/console/leads", params={"limit": 2, "service": "hvac", "state": "tx"}).json()
    second = admin.get("/api/console/leads", params={"limit": 2, "cursor": first["nextCursor"]}).json()
    third = admin.get("/api/console/leads", params={"limit": 2, "cursor": second["nextCursor"]}).json()
    ids = [i["id"] for page in (first, second, third) for i in page["items"]]
    assert len(ids) == len(set(ids)) == 5 and third["nextCursor"] is None
    assert admin.get("/api/console/leads", params={"vertical": "legal"}).json()["items"] == []
    assert len(admin.get("/api/console/leads", params={"status": "pending"}).json()["items"]) == 5
    bad = admin.get("/api/console/leads", params={"from": "yesterday"})
    assert bad.status_code == 422 and bad.json()["fields"] == {"from": "invalid date"}


def test_the_lead_page_shows_answers_by_question_consent_and_deliveries(admin, app):
    payload = _submit(admin, app)
    (item,) = admin.get("/api/console/leads").json()["items"]
    lead = admin.get(f"/api/console/leads/{item['id']}").json()
    service = app.state.catalog.find("hvac", "services")
    first_question = next(f for f in service.fields if f.mapping == "cq1")
    assert lead["answers"][first_question.label] == payload["consumer"]["cq1"]
    assert lead["consent"]["text"] and len(lead["consent"]["textSha256"]) == 64
    assert lead["privacy"] == {"doNotSell": False, "gpc": False, "revokedAt": None, "deletedAt": None}
    # The buyer's delivery, and the consumer's consent receipt beside it.
    assert "Buyer" in [d["recipient"] for d in lead["deliveries"]]
    assert admin.get("/api/console/leads/not-a-lead").status_code == 404


def test_the_csv_export_is_for_admins_audited_and_safe_in_spreadsheets(admin, app):
    _submit(admin, app, email="-cmd@example.com")
    answer = admin.get("/api/console/leads.csv", params={"service": "hvac"})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert len(rows) == 1 and rows[0]["first"] == "Maria" and rows[0]["phone"] == "5125550142"
    assert rows[0]["email"] == "'-cmd@example.com"
    with app.state.session_factory() as session:
        entry = session.scalars(select(AuditEntry).where(AuditEntry.action == "lead.export")).one()
    assert entry.detail == {"filters": {"service": "hvac"}}


def test_the_lead_page_shows_when_contact_was_stopped(admin, app):
    _submit(admin, app)
    (item,) = admin.get("/api/console/leads").json()["items"]
    with app.state.session_factory() as session:
        session.add(LeadRevocation(lead_id=item["id"], revoked_at=utcnow(), method="link"))
        session.commit()
    privacy = admin.get(f"/api/console/leads/{item['id']}").json()["privacy"]
    assert privacy["revokedAt"] is not None and privacy["deletedAt"] is None


def _pages(client, params: dict) -> list[list[str]]:
    pages, cursor = [], None
    while True:
        body = client.get("/api/console/leads", params={**params, **({"cursor": cursor} if cursor else {})}).json()
        pages.append([item["requestId"] for item in body["items"]])
        cursor = body["nextCursor"]
        if cursor is None:
            return pages


def test_a_status_filter_finds_leads_through_that_statuses_deliveries(admin, app, receiver, worker, monkeypatch):
    """Leads refused 540, 40 and 3 days ago and today, beside delivered ones: the pages found
    through recent rejected deliveries are those of each lead's own deliveries; the oldest, past
    the last window, is found lead by lead."""
    index, session_factory = app.state.catalog, app.state.session_factory
    receiver.status = 400  # refused for good: rejected
    for count, first_phone, days in ((1, 5125550900, 500), (2, 5125550910, 37), (2, 5125550920, 3)):
        submit(admin, index, count, subid1="", first_phone=first_phone)
        worker.run_until_idle()
        move_back(session_factory, days)
    receiver.status = 200
    submit(admin, index, 2, subid1="", first_phone=5125550930)
    worker.run_until_idle()
    receiver.status = 400
    submit(admin, index, 1, subid1="", first_phone=5125550940)
    worker.run_until_idle()

    statements: list[str] = []

    def record(_connection, _cursor, statement, *_args) -> None:
        statements.append(statement)

    event.listen(app.state.engine, "before_cursor_execute", record)
    try:
        admin.get("/api/console/leads", params={"status": "rejected", "limit": 2})
    finally:
        event.remove(app.state.engine, "before_cursor_execute", record)
    assert not any("EXISTS" in s for s in statements), "today's page comes from the rejected deliveries"

    found = _pages(admin, {"status": "rejected", "limit": 2})
    assert [len(page) for page in found] == [2, 2, 2]
    monkeypatch.setattr(leads, "FEW_DELIVERIES", ())  # each lead's deliveries looked up
    assert found == _pages(admin, {"status": "rejected", "limit": 2})
    assert [len(page) for page in _pages(admin, {"status": "delivered"})] == [2]


def test_the_list_and_the_lead_page_show_the_source_the_lead_says(admin, app):
    """A lead from the site with no campaign parameter says source "website" in its payload, and
    the console says so too (it used to call it "direct", a word no lead carries)."""
    _submit(admin, app, subid1="")
    _submit(admin, app, phone="5125550177", subid1="spring-sale")
    items = admin.get("/api/console/leads").json()["items"]
    assert sorted(item["source"] for item in items) == ["spring-sale", "website"]
    plain = next(item for item in items if item["source"] == "website")
    assert admin.get(f"/api/console/leads/{plain['id']}").json()["source"] == "website"
    with app.state.session_factory() as session:
        sent = auction_post_payload(lead=session.get(Lead, plain["id"]), settings=app.state.settings)
    assert sent["consumer"]["source"] == "website" and sent["click"]["subid1"] == ""
    by_source = admin.get("/api/console/dashboard").json()["bySource"]
    assert sorted(row["key"] for row in by_source) == ["spring-sale", "website"]


OLD_COLUMNS = ["requestId", "createdAt", "vertical", "service", "status", "first", "last", "email", "phone",
               "address1", "address2", "city", "state", "zip", "isDuplicate", "doNotSell", "buyers", "price"]


def _revoke(app, lead_id: str) -> None:
    with app.state.session_factory() as session:
        revoke(session=session, leads=[session.get(Lead, lead_id)], method="link", request_id=None, now=utcnow())
        session.commit()


def test_a_revoked_lead_shows_as_revoked_in_the_list_and_the_export(admin, app):
    _submit(admin, app, subid1="")
    _submit(admin, app, phone="5125550177", email="ann.lee@example.com", subid1="spring-sale")
    kept, stopped = sorted(admin.get("/api/console/leads").json()["items"], key=lambda item: item["source"])
    _revoke(app, stopped["id"])

    listed = {item["id"]: item for item in admin.get("/api/console/leads").json()["items"]}
    revoked_at = admin.get(f"/api/console/leads/{stopped['id']}").json()["privacy"]["revokedAt"]
    assert (listed[stopped["id"]]["revoked"], listed[stopped["id"]]["revokedAt"]) == (True, revoked_at)
    assert (listed[kept["id"]]["revoked"], listed[kept["id"]]["revokedAt"]) == (False, None)

    answer = admin.get("/api/console/leads.csv")
    header, *_ = csv.reader(io.StringIO(answer.text))
    # The columns there were keep their place; the new ones come after them.
    assert header[:len(OLD_COLUMNS) + 5] == [*OLD_COLUMNS, "consentAt", "consentTextSha256", "revoked", "revokedAt",
                                             "source"]
    rows = {row["requestId"]: row for row in csv.DictReader(io.StringIO(answer.text))}
    for item in (stopped, kept):
        consent = admin.get(f"/api/console/leads/{item['id']}").json()["consent"]
        row = rows[item["requestId"]]
        assert row["consentAt"] == consent["at"]
        assert row["consentTextSha256"] == hashlib.sha256(consent["text"].encode()).hexdigest()
        assert row["source"] == item["source"] and row["doNotSell"] == "False"
    assert (rows[stopped["requestId"]]["revoked"], rows[stopped["requestId"]]["revokedAt"]) == ("True", revoked_at)
    assert (rows[kept["requestId"]]["revoked"], rows[kept["requestId"]]["revokedAt"]) == ("False", "")
    assert (rows[stopped["requestId"]]["source"], rows[kept["requestId"]]["source"]) == ("website", "spring-sale")


def _statements(app, call) -> int:
    statements: list[str] = []

    def record(_connection, _cursor, statement, *_args) -> None:
        statements.append(statement)

    event.listen(app.state.engine, "before_cursor_execute", record)
    try:
        call()
    finally:
        event.remove(app.state.engine, "before_cursor_execute", record)
    return len(statements)


def test_the_list_and_the_export_read_a_page_in_a_fixed_number_of_queries(admin, app):
    """The source, consent and revocation of a page of leads come in one query, not one per lead."""
    index = app.state.catalog

    def counts() -> tuple[int, int]:
        return (_statements(app, lambda: admin.get("/api/console/leads")),
                _statements(app, lambda: admin.get("/api/console/leads.csv").text))

    submit(admin, index, 2, subid1="", first_phone=5125550600)
    few = counts()
    submit(admin, index, 6, subid1="", first_phone=5125550700)
    for item in admin.get("/api/console/leads").json()["items"][:3]:
        _revoke(app, item["id"])
    assert counts() == few
