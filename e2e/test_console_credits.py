"""Credits from the console at 390 and 1280 px: an admin approves one provider's credit request
with a note (the credit lands in the provider's ledger) and denies another with a reason; an
analyst sees the queue without the buttons that decide."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta

import pytest
from console_support import (
    assert_fits_and_tappable,
    no_sideways_overflow,
    sign_in,
    submit_lead,
    wait_until,
)
from playwright.sync_api import Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.access.models import AuditEntry
from servicematch.delivery.models import Provider
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import AccountKind, Cause, EntryKind, LedgerEntry
from servicematch.ledger.postings import account_for, post
from servicematch.portal.models import CreditRequest
from servicematch.routing.models import OfferStatus, ProviderOffer

pytestmark = pytest.mark.browser


@dataclass(frozen=True)
class Waiting:
    provider_name: str
    wrong_phone: str  # credit request ids
    outside_area: str


def _stored(server_engine, request_id: str) -> Lead | None:
    with Session(server_engine) as session:
        return session.scalar(select(Lead).where(Lead.request_id == request_id))


@pytest.fixture
def waiting(server_engine, live_server: str) -> Waiting:
    """A provider (in Alaska: routing never sends it the other tests' leads) that accepted two leads
    and asked for a credit on each, as the portal stores them."""
    name = f"Credit Roofing {uuid.uuid4().hex[:6]}"
    request_ids = [submit_lead(live_server) for _ in range(2)]
    leads = [wait_until(lambda rid=rid: _stored(server_engine, rid), "the lead stored") for rid in request_ids]
    ids = []
    with Session(server_engine) as session:
        provider = Provider(name=name, contact_email="office@creditroofing.example", services=["roofing"],
                            states=["AK"])
        session.add(provider)
        session.flush()
        account = account_for(session, AccountKind.PROVIDER, provider.id, name=name)
        for lead, reason, detail, cents in ((leads[0], "wrong_phone", "Number disconnected, tried 3 times.", 4500),
                                            (leads[1], "outside_area", "Job is in the next county.", 3800)):
            decided = utcnow() - timedelta(hours=5)
            offer = ProviderOffer(lead_id=lead.id, provider_id=provider.id, status=OfferStatus.ACCEPTED,
                                  price_cents=cents, created_at=decided, expires_at=decided + timedelta(hours=2),
                                  decided_at=decided)
            session.add(offer)
            session.flush()
            post(session, account, kind=EntryKind.CHARGE, amount_cents=-cents, cause=Cause.OFFER, cause_id=offer.id,
                 lead_id=lead.id, description="HVAC lead, Austin TX 78701", vertical=lead.vertical,
                 service=lead.service, state=lead.state, now=decided)
            request = CreditRequest(provider_id=provider.id, offer_id=offer.id, lead_id=lead.id, reason=reason,
                                    detail=detail, amount_cents=cents, created_at=decided + timedelta(hours=1))
            session.add(request)
            session.flush()
            ids.append(request.id)
        session.commit()
    return Waiting(provider_name=name, wrong_phone=ids[0], outside_area=ids[1])


def test_an_admin_approves_one_credit_and_denies_another(page: Page, operators, waiting: Waiting, server_engine,
                                                        save_screenshot):
    sign_in(page, operators.admin, path="/admin")
    page.get_by_role("navigation", name="Console").get_by_role("link", name="Credits").click()
    expect(page.get_by_role("heading", name="Credits", level=1)).to_be_visible()
    name = waiting.provider_name
    first = page.get_by_role("region", name=f"{name}: Wrong or disconnected phone")
    second = page.get_by_role("region", name=f"{name}: Outside my area")
    expect(first).to_contain_text("Number disconnected, tried 3 times.")
    expect(first).to_contain_text("$45.00")
    expect(first).to_contain_text("Austin, TX")
    expect(first).to_contain_text("ago")
    expect(second).to_contain_text("$38.00")
    assert_fits_and_tappable(page, first)
    save_screenshot(page, "console-credits")

    first.get_by_role("button", name=f"Approve the credit for {name}").click()
    form = first.get_by_role("form", name=f"Approve the credit for {name}")
    form.get_by_label("Note (optional, the provider reads it)").fill("Called the number: disconnected.")
    assert_fits_and_tappable(page, form)
    form.get_by_role("button", name="Credit $45.00").click()
    expect(first.get_by_role("status")).to_have_text(f"Approved: $45.00 credited to {name}.")
    expect(first.get_by_text("approved", exact=True)).to_be_visible()

    second.get_by_role("button", name=f"Deny the credit for {name}").click()
    form = second.get_by_role("form", name=f"Deny the credit for {name}")
    form.get_by_role("button", name="Deny the credit").click()  # a denial needs its reason: the browser asks
    expect(second.get_by_text("denied", exact=True)).to_have_count(0)
    form.get_by_label("Why it is denied (the provider reads it)").fill("The ZIP is inside your area.")
    form.get_by_role("button", name="Deny the credit").click()
    expect(second.get_by_role("status")).to_have_text(f"Denied: {name} sees your note.")
    expect(second).to_contain_text("The ZIP is inside your area.")
    save_screenshot(page, "console-credits-decided")

    with Session(server_engine) as session:
        credits = session.scalars(select(LedgerEntry).where(LedgerEntry.kind == EntryKind.CREDIT,
                                                            LedgerEntry.cause_id.in_(
                                                                [waiting.wrong_phone, waiting.outside_area]))).all()
        assert [(c.cause_id, c.amount_cents) for c in credits] == [(waiting.wrong_phone, 4500)]
        actions = {(e.action, e.target) for e in session.scalars(select(AuditEntry).where(
            AuditEntry.operator_email == operators.admin))}
        assert {("credit.approve", waiting.wrong_phone), ("credit.deny", waiting.outside_area)} <= actions

    page.get_by_label("Show").select_option("approved")
    expect(page.get_by_role("region", name=f"{name}: Wrong or disconnected phone")).to_contain_text(
        "Called the number: disconnected.")


def test_an_analyst_sees_the_queue_but_cannot_decide(page: Page, operators, waiting: Waiting):
    sign_in(page, operators.analyst, path="/admin/credits")
    card = page.get_by_role("region", name=f"{waiting.provider_name}: Wrong or disconnected phone")
    expect(card).to_contain_text("$45.00")
    expect(card.get_by_role("button")).to_have_count(0)
    assert no_sideways_overflow(page)
