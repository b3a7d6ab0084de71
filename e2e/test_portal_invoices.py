"""Monthly invoices at 390 and 1280 px. A buyer's: a past month of its leads, a payment and another
account's activity, issued with `servicematch invoices issue --month` (a second run issues and mails
nothing); the buyer's person gets it by e-mail with its PDF, signs in, finds it in the portal with
every line, downloads the PDF, and cannot open the other account's invoice. In the console: an admin
finds the overdue invoice and records the cheque that pays it."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from console_support import (
    ConsoleClient,
    assert_fits_and_tappable,
    servicematch_cli,
    sign_in,
    submit_lead,
    wait_until,
)
from playwright.sync_api import Page, expect
from sqlalchemy import select
from test_buyer_portal import PASSWORD, _mailed_token, _shot, _tappable

from servicematch.db.session import make_engine, make_session_factory
from servicematch.intake.models import Lead
from servicematch.kernel.references import shown_reference
from servicematch.ledger.models import AccountKind, Cause, EntryKind, Invoice, Terms
from servicematch.ledger.postings import account_for, post
from servicematch.mail.mailbox import LocalMailbox

pytestmark = pytest.mark.browser

# A month long over, one per viewport, so each run issues its own; its leads from an El Paso ZIP
# no other browser test's buyer or provider serves.
MONTHS = {390: (2025, 3), 1280: (2025, 2)}
CONSOLE_MONTHS = {390: (2025, 1), 1280: (2024, 12)}
ZIP = "79901"


@pytest.fixture(scope="module")
def admin_api(live_server: str, operators):
    client = ConsoleClient(live_server, operators.admin)
    yield client
    client.close()


def _buyer_with_person(admin_api: ConsoleClient) -> tuple[dict, str]:
    """A buyer of roofing leads in a ZIP no browser test sends a lead from (it buys nothing here), and the
    e-mail of its person, invited by mail."""
    answer = admin_api.send("POST", "/buyers", {
        "name": f"Invoice Leads {uuid.uuid4().hex[:6]}", "postUrl": "https://buyer.example/leads", "price": 20,
        "services": ["roofing"], "zips": ["79936"]})
    assert answer.status_code == 201, answer.text
    buyer = answer.json()
    email = f"billing-{uuid.uuid4().hex[:8]}@example.com"
    assert admin_api.send("POST", f"/buyers/{buyer['id']}/people", {"email": email}).status_code == 201
    return buyer, email


def _lead(session_factory, base_url: str) -> tuple[str, str]:
    """A lead sent through the site's API: (its id, its reference as shown)."""
    request_id = submit_lead(base_url, zip_code=ZIP, email=f"maria-{uuid.uuid4().hex[:6]}@example.com")

    def stored():
        with session_factory() as session:
            return session.execute(select(Lead.id, Lead.reference).where(Lead.request_id == request_id)).first()

    lead_id, reference = wait_until(stored, f"lead {request_id} stored")
    return lead_id, shown_reference(reference)


def _month_of_activity(session_factory, buyer: dict, leads: list[tuple[str, str]], start: datetime, *,
                       net_days: int = 15) -> None:
    """Two leads charged, a wire received, and another account's charge, all in the month from `start`;
    the buyer's invoices due `net_days` after they are issued."""
    with session_factory() as session:
        account = account_for(session, AccountKind.BUYER, buyer["id"], name=buyer["name"], terms=Terms.CREDIT)
        account.net_days = net_days
        for n, ((lead_id, _), cents) in enumerate(zip(leads, (4_550, 3_000), strict=True)):
            post(session, account, kind=EntryKind.CHARGE, amount_cents=-cents, cause=Cause.SALE,
                 cause_id=f"e2e-{uuid.uuid4().hex}", lead_id=lead_id, service="hvac", vertical="services", state="TX",
                 description="HVAC lead", now=start + timedelta(days=3 + n))
        post(session, account, kind=EntryKind.PAYMENT, amount_cents=2_500, cause=Cause.PAYMENT,
             cause_id=f"e2e-{uuid.uuid4().hex}", description="Payment by wire", now=start + timedelta(days=9))
        other = account_for(session, AccountKind.BUYER, f"e2e-other-{uuid.uuid4().hex[:8]}", name="Someone Else")
        post(session, other, kind=EntryKind.CHARGE, amount_cents=-9_900, cause=Cause.SALE,
             cause_id=f"e2e-{uuid.uuid4().hex}", description="HVAC lead", now=start + timedelta(days=4))
        session.commit()


def _invoices_mailed(mail_dir: Path, address: str) -> list[EmailMessage]:
    return [m for m in (s.read() for s in LocalMailbox(mail_dir).messages())
            if str(m["To"]).lower() == address and " invoice INV-" in str(m["Subject"])]


def test_a_buyers_person_gets_the_months_invoice_by_mail_reads_every_line_and_downloads_its_pdf(
        page: Page, live_server, server_database_url, server_mail_dir, admin_api, save_screenshot):
    width = page.viewport_size["width"]
    year, number = MONTHS[width]
    start, month = datetime(year, number, 1, tzinfo=UTC), f"{year}-{number:02d}"
    session_factory = make_session_factory(make_engine(server_database_url))
    buyer, email = _buyer_with_person(admin_api)
    leads = [_lead(session_factory, live_server) for _ in range(2)]
    _month_of_activity(session_factory, buyer, leads, start)

    issued = servicematch_cli(server_database_url, "invoices", "issue", "--month", month,
                              env={"SERVICEMATCH_MAIL_DIR": str(server_mail_dir), "SERVICEMATCH_SITE_ORIGIN": live_server})
    assert issued.startswith(f"{month}: ") and "invoices issued" in issued and " mailed" in issued, issued
    with session_factory() as session:
        invoices = {invoice.account_id: invoice for invoice in session.scalars(select(Invoice).where(
            Invoice.month == month))}
        mine = next(invoice for invoice in invoices.values() if invoice.due_cents == 5_050)
        others = [invoice.id for invoice in invoices.values() if invoice.id != mine.id]
    label = f"INV-{mine.number:06d}"
    again = servicematch_cli(server_database_url, "invoices", "issue", "--month", month,
                             env={"SERVICEMATCH_MAIL_DIR": str(server_mail_dir), "SERVICEMATCH_SITE_ORIGIN": live_server})
    assert f"{month}: 0 invoices issued" in again and ", 0 mailed" in again, again
    [message] = wait_until(lambda: _invoices_mailed(server_mail_dir, email), f"the invoice mailed to {email}")
    assert label in str(message["Subject"])
    [attached] = list(message.iter_attachments())
    assert attached.get_filename() == f"{label}.pdf" and label.encode() in attached.get_content()

    # The person chooses a password through the invitation and finds the invoice in the portal.
    page.goto(f"/buyer/welcome#{_mailed_token(server_mail_dir, email, 'welcome')}")
    page.get_by_label("New password").fill(PASSWORD)
    page.get_by_label("The same password again").fill(PASSWORD)
    page.get_by_role("button", name="Save and sign in").click()
    expect(page.get_by_role("heading", name="Leads bought", level=1)).to_be_visible()

    # From Billing to the list, then the invoice with every line and its PDF.
    page.get_by_role("navigation", name="Portal").get_by_role("link", name="Billing").click()
    page.get_by_role("link", name="See your invoices").click()
    expect(page.get_by_role("heading", name="Invoices", level=1)).to_be_visible()
    month_name = start.strftime("%B %Y")
    page.get_by_role("link", name=f"{label}, {month_name}").click()
    expect(page.get_by_role("heading", name=f"Invoice for {month_name}")).to_be_visible()
    lines = page.get_by_role("list", name="Invoice lines")
    for _, reference in leads:
        expect(lines).to_contain_text(reference)
    expect(lines).to_contain_text("-$45.50")
    expect(lines).to_contain_text("Payment by wire")
    totals = page.get_by_role("region", name="Totals", exact=True)
    expect(totals).to_contain_text("$50.50")
    pdf_href = page.get_by_role("link", name="Download PDF").get_attribute("href")
    pdf = page.request.get(pdf_href)
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf" and label.encode() in pdf.body()
    _tappable(page)
    _shot(page, save_screenshot, "buyer-invoice")

    # Another account's invoice: not found, in the page and by the API.
    page.goto(f"/buyer/invoices/{others[0]}")
    expect(page.get_by_role("heading", name="Invoice not found")).to_be_visible()
    assert page.request.get(f"/api/buyer/invoices/{others[0]}.pdf").status == 404


def test_an_admin_finds_an_overdue_invoice_and_records_the_cheque_that_pays_it(
        page: Page, live_server, server_database_url, server_mail_dir, admin_api, operators, save_screenshot):
    width = page.viewport_size["width"]
    year, number = CONSOLE_MONTHS[width]
    start, month = datetime(year, number, 1, tzinfo=UTC), f"{year}-{number:02d}"
    session_factory = make_session_factory(make_engine(server_database_url))
    buyer, _ = _buyer_with_person(admin_api)
    # Due when issued: overdue at once.
    _month_of_activity(session_factory, buyer, [_lead(session_factory, live_server) for _ in range(2)], start,
                       net_days=0)
    servicematch_cli(server_database_url, "invoices", "issue", "--month", month,
                     env={"SERVICEMATCH_MAIL_DIR": str(server_mail_dir), "SERVICEMATCH_SITE_ORIGIN": live_server})

    sign_in(page, operators.admin, path=f"/admin/invoices?show=overdue&month={month}")
    expect(page.get_by_role("heading", name="Invoices", level=1)).to_be_visible()
    card = page.get_by_role("region", name=re.compile(rf"INV-\d+ · {re.escape(buyer['name'])}"))
    expect(card).to_contain_text("$50.50")
    expect(card).to_contain_text("overdue")
    assert_fits_and_tappable(page, card)
    save_screenshot(page, "console-invoices")
    card.get_by_role("button", name=re.compile(r"Mark INV-\d+ paid")).click()
    form = card.get_by_role("form", name=re.compile(r"Record a payment for INV-\d+"))
    form.get_by_label("Received by").select_option("cheque")
    form.get_by_label(re.compile("Note")).fill("Cheque 1042")
    form.get_by_role("button", name="Record the payment").click()
    expect(card.get_by_text(re.compile(r"Recorded \$50\.50: INV-\d+ is paid\."))).to_be_visible()
    expect(card.get_by_text("paid", exact=True)).to_be_visible()
    with session_factory() as session:
        paid = session.scalars(select(Invoice).where(Invoice.month == month, Invoice.due_cents == 5_050)).one()
        assert paid.status == "paid"
