"""Every console answer is what its response model (the OpenAPI schema, and so the browser's types in
frontend/src/lib/api-schema.ts) says, and the models change nothing the routes send.

For a seeded database, each GET route's answer is read twice: as the route's code built it (recorded
on its way into FastAPI's serialisation) and as it was sent. They must be the same JSON, key for key,
in the same order and with the same number types; and the answer must have exactly the keys of its
model, at every level. Every key of a response model is required and no other is allowed, so an
answer that gains or loses a key fails here, never silently in the schema.
"""

from __future__ import annotations

import json
import types
from datetime import timedelta
from typing import Any, Union, get_args, get_origin

import fastapi.routing
import pytest
from console_api_support import hvac_payload, post_event, sign_in
from fastapi.encoders import jsonable_encoder
from fastapi.routing import APIRoute
from money_support import accept_offer
from pydantic import BaseModel
from sqlalchemy import select

from servicematch.buyer.returns import ReturnAsk, lodge_return
from servicematch.console.applications import router as applications_router
from servicematch.console.buyer_people import router as buyer_people_router
from servicematch.console.buyer_returns import router as buyer_returns_router
from servicematch.console.credits import router as credits_router
from servicematch.console.held_leads import router as held_leads_router
from servicematch.console.invoices import router as invoices_router
from servicematch.console.payments import router as payments_router
from servicematch.console.quality_measures import router as quality_measures_router
from servicematch.console.reviews import router as reviews_router
from servicematch.console.router import router as console_router
from servicematch.console.router_money import router as money_router
from servicematch.console.router_session import router as session_router
from servicematch.console.shapes import Shape
from servicematch.console.suppression import router as suppression_router
from servicematch.delivery.models import Delivery, DeliveryStatus, Provider
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.ledger.invoices import issue_month
from servicematch.ledger.models import Cause, EntryKind, LedgerAccount, LedgerCheck
from servicematch.ledger.postings import post
from servicematch.portal import credits
from servicematch.portal.models import ApplicationStatus, ProviderApplication, ProviderReview
from servicematch.privacy.actions import revoke
from servicematch.routing.models import Buyer, Sale

ROUTERS = (session_router, applications_router, credits_router, reviews_router, buyer_people_router,
           buyer_returns_router, money_router, payments_router, invoices_router, held_leads_router,
           quality_measures_router, suppression_router, console_router)
# Answers that are not JSON objects: the CSV export (text/csv), signing out and a buyer's person's
# link sent again or account disabled (204, no body).
NOT_JSON = {("GET", "/api/console/leads.csv"), ("DELETE", "/api/console/session"),
            ("POST", "/api/console/buyers/{buyer_id}/people/{account_id}/invite-again"),
            ("POST", "/api/console/buyers/{buyer_id}/people/{account_id}/disable"),
            ("GET", "/api/console/invoices/{invoice_id}.pdf")}


@pytest.fixture
def settings(settings):
    """Only the buyers of the buyers table: the fixed SERVICEMATCH_BUYER_URL buyer would take a seat."""
    return settings.model_copy(update={"buyer_url": ""})


def _routes() -> dict[tuple[str, str], APIRoute]:
    return {(method, route.path): route for router in ROUTERS for route in router.routes
            if isinstance(route, APIRoute) for method in route.methods}


def _models(annotation: Any) -> list[type[BaseModel]]:
    """The models an annotation names, through unions, lists and dicts."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in get_args(annotation) for model in _models(arg)]


def _every_model(model: type[BaseModel], seen: dict[type, None] | None = None) -> list[type[BaseModel]]:
    seen = {} if seen is None else seen
    if model not in seen:
        seen[model] = None
        for info in model.model_fields.values():
            for inner in _models(info.annotation):
                _every_model(inner, seen)
    return list(seen)


def _same_keys(model: type[BaseModel], value: Any, where: str) -> None:
    """The answer's keys are the model's, in its order, at every level."""
    assert isinstance(value, dict), f"{where}: {value!r} is not an object"
    described = [info.alias or name for name, info in model.model_fields.items()]
    assert list(value) == described, f"{where}: sent {list(value)}, the model describes {described}"
    for name, info in model.model_fields.items():
        _same_keys_in(info.annotation, value[info.alias or name], f"{where}.{name}")


def _same_keys_in(annotation: Any, value: Any, where: str) -> None:
    if value is None:
        return
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        inner = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(inner) == 1:
            _same_keys_in(inner[0], value, where)
    elif origin is list:
        for n, item in enumerate(value):
            _same_keys_in(get_args(annotation)[0], item, f"{where}[{n}]")
    elif origin is dict:
        for key, item in value.items():
            _same_keys_in(get_args(annotation)[1], item, f"{where}.{key}")
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        _same_keys(annotation, value, where)


def test_every_console_route_that_answers_json_has_a_response_model():
    for (method, path), route in _routes().items():
        if (method, path) in NOT_JSON:
            continue
        model = route.response_model
        assert isinstance(model, type) and issubclass(model, BaseModel), f"{method} {path}: {model!r}"


def test_every_key_of_a_response_model_is_required_and_no_other_is_allowed():
    models = {inner for route in _routes().values() if route.response_model
              for inner in _every_model(route.response_model)}
    for model in models:
        optional = [name for name, info in model.model_fields.items() if not info.is_required()]
        assert not optional, f"{model.__name__}: {optional} would appear in answers that never sent them"
        if issubclass(model, Shape):
            assert model.model_config.get("extra") == "forbid", model.__name__


@pytest.fixture
def sent(monkeypatch) -> list[tuple[Any, Any]]:
    """(what the route's code returned, what was sent) of each JSON answer, in order."""
    calls: list[tuple[Any, Any]] = []
    serialize = fastapi.routing.serialize_response

    async def recorded(**kwargs):
        content = await serialize(**kwargs)
        calls.append((kwargs["response_content"], json.loads(content) if isinstance(content, bytes) else content))
        return content

    monkeypatch.setattr(fastapi.routing, "serialize_response", recorded)
    return calls


def _seed(admin, app, worker, receiver) -> dict[str, str]:
    """Leads routed through a ping-post buyer and a provider, a revoked lead, failed and pending
    deliveries, funnel events, a credit request, a review, applications and a ledger check; their ids."""
    receiver.reply = b'{"bid": 25}'
    buyer = admin.post("/api/console/buyers", json={
        "name": "Local Buyer", "pingUrl": receiver.url, "postUrl": receiver.url, "services": ["hvac"],
        "states": ["tx"], "exclusive": True}).json()
    provider = admin.post("/api/console/providers", json={
        "name": "Cool Air LLC", "email": "dispatch@coolair.example", "services": ["hvac"], "states": ["TX"],
        "webhookUrl": "http://127.0.0.1:9/hook", "radiusMiles": None}).json()
    for n, phone in enumerate(("5125550142", "5125550143", "5125550144")):
        payload = hvac_payload(app.state.catalog, phone=phone, email=f"lead{n}@example.com")
        assert admin.post("/api/submit-form", json=payload).status_code == 202
    worker.run_until_idle()

    service = app.state.catalog.find("auto-accident", "legal")
    field = next(f for f in service.fields if f.disqualifiers)
    for kind, extra in (("page_view", {}), ("step_view", {"step": 2}), ("submitted", {}), ("call_click", {}),
                        ("disqualified", {"step": field.step, "field": field.id, "answer": field.disqualifiers[0]})):
        post_event(admin, "tab-aaaaaaaa", kind, **extra)
    post_event(admin, "tab-bbbbbbbb", "step_view", service="hvac", vertical="services", step=50)
    app.state.event_buffer.flush()

    with app.state.session_factory() as session:
        leads = list(session.scalars(select(Lead).order_by(Lead.created_at, Lead.id)))
        revoke(session=session, leads=[leads[0]], method="link", request_id=None, now=utcnow())
        failed, pending, *_ = session.scalars(select(Delivery).order_by(Delivery.created_at, Delivery.id))
        failed.status, failed.last_error = DeliveryStatus.FAILED, "HTTP 500"
        pending.status, pending.next_attempt_at = DeliveryStatus.PENDING, utcnow()
        session.get(Provider, provider["id"]).credit_cap_percent = 100
        session.add_all([
            ProviderApplication(status=ApplicationStatus.PENDING, business_name="Fresh Air Co",
                                contact_name="Ann Lee", email="ann@freshair.example", phone="5125550177",
                                services=["hvac"], zips=["78701"], radius_miles=15.0, states=[],
                                confirmed_at=utcnow()),
            ProviderReview(provider_id=provider["id"], stars=4, text="Quick and tidy.", city="Austin", state="TX"),
        ])
        session.commit()
        lead_ids = [lead.id for lead in leads]
    offer_id = accept_offer(app, lead_id=lead_ids[1], provider_id=provider["id"])
    with app.state.session_factory() as session:
        credits.request_credit(session, app.state.settings, session.get(Provider, provider["id"]), offer_id,
                               credits.CreditAsk(reason="wrong_phone", detail=None), now=utcnow())
        session.commit()
        assert session.scalar(select(Buyer.id)) == buyer["id"]
        sale = session.scalars(select(Sale).where(Sale.lead_id == lead_ids[2])).one()
        lodge_return(session, app.state.settings, session.get(Buyer, buyer["id"]), sale,
                     ReturnAsk(reason="wrong_phone"), who="ops@buyer.example", now=utcnow())
        session.commit()
    assert admin.post(f"/api/console/buyers/{buyer['id']}/people", json={"email": "ops@buyer.example"}).status_code \
        == 201
    with app.state.session_factory() as session:
        session.add(LedgerCheck(started_at=utcnow(), finished_at=utcnow(), ok=False, accounts=1, entries=1,
                                problems=["A balance differs from its entries."]))
        session.commit()
        account_id = session.scalar(select(LedgerAccount.id).where(LedgerAccount.owner_id == provider["id"]))
        # Last month's entry, so that month has an invoice to list.
        post(session, session.get(LedgerAccount, account_id), kind=EntryKind.ADJUSTMENT, amount_cents=-1_250,
             cause=Cause.ADJUSTMENT, cause_id="last-month", description="Set-up fee", created_by="ops@example.com",
             now=utcnow() - timedelta(days=40))
        session.commit()
    from held_lead_support import held_lead

    held_lead(admin, app.state.catalog, phone="5125550199", subid1="fb-ads")
    assert admin.post("/api/console/suppression-lists/import", json={
        "name": "litigators", "content": "5125550199"}).status_code == 200
    assert admin.post("/api/console/suppression-lists/import", json={
        "name": "buyer-customers", "buyerId": buyer["id"], "content": "customer@example.com"}).status_code == 200
    issued = issue_month(app.state.session_factory, app.state.catalog, f"{utcnow() - timedelta(days=40):%Y-%m}")
    return {"lead_id": lead_ids[1], "revoked_id": lead_ids[0], "buyer_id": buyer["id"],
            "provider_id": provider["id"], "account_id": account_id, "invoice_id": issued.issued[0]}


def _gets(ids: dict[str, str]) -> list[tuple[str, str, dict]]:
    """(route, address, query) of every GET the console answers with JSON."""
    lead, revoked = f"/api/console/leads/{ids['lead_id']}", f"/api/console/leads/{ids['revoked_id']}"
    return [
        ("/api/console/session", "/api/console/session", {}),
        ("/api/console/dashboard", "/api/console/dashboard", {}),
        ("/api/console/dashboard", "/api/console/dashboard", {"service": "hvac", "state": "TX"}),
        ("/api/console/leads", "/api/console/leads", {}),
        ("/api/console/leads", "/api/console/leads", {"limit": 1}),
        ("/api/console/leads", "/api/console/leads", {"quality": "held", "scoreMax": 29}),
        ("/api/console/held-leads", "/api/console/held-leads", {}),
        ("/api/console/held-leads", "/api/console/held-leads", {"limit": 1, "source": "fb-ads"}),
        ("/api/console/quality/measures", "/api/console/quality/measures", {}),
        ("/api/console/suppression-lists", "/api/console/suppression-lists", {}),
        ("/api/console/leads/{lead_id}", lead, {}),
        ("/api/console/leads/{lead_id}", revoked, {}),
        ("/api/console/deliveries", "/api/console/deliveries", {}),
        ("/api/console/deliveries", "/api/console/deliveries", {"status": "pending"}),
        ("/api/console/deliveries/counts", "/api/console/deliveries/counts", {}),
        ("/api/console/providers", "/api/console/providers", {}),
        ("/api/console/buyers", "/api/console/buyers", {}),
        ("/api/console/buyers/{buyer_id}/bids", f"/api/console/buyers/{ids['buyer_id']}/bids", {}),
        ("/api/console/partner-lists", "/api/console/partner-lists", {}),
        ("/api/console/audit", "/api/console/audit", {}),
        ("/api/console/audit", "/api/console/audit", {"limit": 2}),
        ("/api/console/credits", "/api/console/credits", {}),
        ("/api/console/applications", "/api/console/applications", {}),
        ("/api/console/reviews", "/api/console/reviews", {}),
        ("/api/console/buyers/{buyer_id}/people", f"/api/console/buyers/{ids['buyer_id']}/people", {}),
        ("/api/console/returns", "/api/console/returns", {}),
        ("/api/console/returns", "/api/console/returns", {"status": "pending"}),
        ("/api/console/conversion", "/api/console/conversion", {}),
        ("/api/console/conversion", "/api/console/conversion", {"by": "service"}),
        ("/api/console/money", "/api/console/money", {}),
        ("/api/console/accounts", "/api/console/accounts", {}),
        ("/api/console/accounts", "/api/console/accounts", {"status": "owing", "limit": 1}),
        ("/api/console/accounts/{accountId}", f"/api/console/accounts/{ids['account_id']}", {}),
        ("/api/console/payments", "/api/console/payments", {}),
        ("/api/console/payments", "/api/console/payments", {"accountId": ids["account_id"]}),
        ("/api/console/invoices", "/api/console/invoices", {}),
        ("/api/console/invoices", "/api/console/invoices", {"overdue": "true"}),
        ("/api/console/invoices/{invoice_id}", f"/api/console/invoices/{ids['invoice_id']}", {}),
    ]


def _check(client, sent: list, route: APIRoute, address: str, query: dict) -> None:
    where = f"GET {address} {query}"
    sent.clear()
    answer = client.get(address, params=query)
    assert answer.status_code == 200, f"{where}: {answer.text}"
    body = answer.json()
    [(built, serialised)] = sent
    assert serialised == body
    if isinstance(built, dict):
        # The model changed nothing: the same keys in the same order, the same values and number types.
        assert json.dumps(body) == json.dumps(jsonable_encoder(built)), where
    model = route.response_model
    _same_keys(model, body, where)
    assert model.model_validate(body).model_dump(mode="json", by_alias=True) == body, where


def test_each_answer_is_what_its_model_describes_and_what_the_route_built(admin, add_operator, app, worker,
                                                                         receiver, sent):
    ids = _seed(admin, app, worker, receiver)
    routes = _routes()
    gets = _gets(ids)
    listed = {path for path, _address, _query in gets}
    assert listed == {path for method, path in routes if method == "GET" and (method, path) not in NOT_JSON}
    for path, address, query in gets:
        _check(admin, sent, routes[("GET", path)], address, query)
    # An analyst's answers: personal data masked or hidden (reviews are admins' only).
    sign_in(admin, add_operator("analyst"))
    for path, address, query in gets:
        if path != "/api/console/reviews":
            _check(admin, sent, routes[("GET", path)], address, query)
