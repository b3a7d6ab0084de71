"""An invoice's PDF: our name and the account's, number, month, dates, every line with its lead's
reference, the totals and amount due, how to pay; nothing about a consumer; the same bytes each
time; a long month over several pages, the table's heading on each."""

from __future__ import annotations

import re
from datetime import timedelta

from invoice_support import BEFORE_MONTH, charge, invoice_of, issue, ledger_account, payment
from sqlalchemy import select

from servicematch.intake.models import Lead
from servicematch.kernel.references import shown_reference
from servicematch.ledger.invoice_pdf import invoice_lines, invoice_pdf, money, render_invoice
from servicematch.ledger.models import AccountKind, Invoice

TEXT = re.compile(rb"\((.*?)(?<!\\)\) Tj")


def shown_text(pdf: bytes) -> list[str]:
    """Every string the PDF's pages draw, in order (the PDF is written uncompressed)."""
    return [re.sub(r"\\(.)", r"\1", found.decode("latin-1")) for found in TEXT.findall(pdf)]


def _pdf(app, invoice: Invoice) -> bytes:
    with app.state.session_factory() as session:
        return invoice_pdf(session, session.get(Invoice, invoice.id), "ServiceMatch")


def test_the_pdf_carries_the_number_dates_lines_totals_and_how_to_pay_and_nothing_of_a_consumer(app):
    account = ledger_account(app, AccountKind.BUYER, "buyer-1", name="Leads Direct LLC", net_days=10)
    charge(app, account, 2_000, at=BEFORE_MONTH)
    leads = [charge(app, account, cents) for cents in (3_000, 4_550)]
    payment(app, account, 1_000)
    issue(app)
    invoice = invoice_of(app, account)

    pdf = _pdf(app, invoice)
    text = shown_text(pdf)
    joined = "\n".join(text)

    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    for expected in ("ServiceMatch", "Invoice INV-000001", "Leads Direct LLC", "Buyer", "INV-000001", "March 2025",
                     "Apr 01, 2025", "Apr 11, 2025", "Activity in March 2025", "Opening balance", "-$20.00",
                     "Charges", "-$75.50", "Payments", "$10.00", "Closing balance", "-$85.50", "Amount due",
                     "$85.50", "-$30.00", "-$45.50", "Mar 10, 2025"):
        assert expected in text, (expected, text)
    with app.state.session_factory() as session:
        lead_rows = session.scalars(select(Lead).where(Lead.id.in_(leads))).all()
    for lead in lead_rows:
        assert shown_reference(lead.reference) in text
    hvac = app.state.catalog.find("hvac", "services").name
    assert text.count(f"{hvac} lead, TX") == 2
    assert "How to pay" in joined and "INV-000001" in joined.split("How to pay", 1)[1]
    for personal in ("Maria", "Garcia", "Congress", "Austin", "78701", "512555"):
        assert personal not in joined, personal
    assert _pdf(app, invoice) == pdf  # the same invoice, the same bytes


def test_a_long_month_runs_over_pages_with_the_heading_on_each(app):
    account = ledger_account(app, AccountKind.PROVIDER, "provider-1", name="Cool Air LLC")
    lead = charge(app, account, 1_000)
    for n in range(119):  # the same stored lead, charged again: storing 120 leads costs more than it shows
        charge(app, account, 1_000 + n, lead_id=lead, at=BEFORE_MONTH + timedelta(days=10, minutes=n))
    issue(app)
    invoice = invoice_of(app, account)
    pdf = _pdf(app, invoice)
    text = shown_text(pdf)
    pages = pdf.count(b"/Type /Page\n")
    assert 2 <= pages <= 4
    assert text.count("Reference") == pages
    assert sum(1 for value in text if re.fullmatch(r"-\$1\d\.\d\d", value)) == 120
    assert re.search(rf"page {pages} of\s+{pages}$", " ".join(text))  # the footer's page count


def test_names_outside_latin_1_and_long_descriptions_still_make_a_pdf(app):
    account = ledger_account(app, AccountKind.BUYER, "buyer-1", name="Łódź Leads — “Best” 線")
    charge(app, account, 1_000)
    issue(app)
    with app.state.session_factory() as session:
        invoice = session.scalars(select(Invoice)).one()
        lines = invoice_lines(session, invoice.id)
        lines[0].description = "A very long description " * 12
        pdf = render_invoice(invoice, lines, account_name="Łódź Leads — “Best” 線", account_kind="buyer",
                             brand="ServiceMatch")
        session.rollback()
    text = shown_text(pdf)
    assert '?ód? Leads - "Best" ?' in text
    assert any(value.startswith("A very long description") and value.endswith("...") for value in text)


def test_money_reads_as_dollars_with_thousands():
    assert [money(cents) for cents in (0, 5, -123456, 100_000_000)] == ["$0.00", "$0.05", "-$1,234.56",
                                                                         "$1,000,000.00"]
