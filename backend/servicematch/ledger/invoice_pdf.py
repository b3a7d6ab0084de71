"""An invoice as a PDF (fpdf2), built from the stored invoice and its lines only.

Our name, the account's name, the number, month, issue and due dates, the lines (date, the lead's
reference, description, amount), the totals, the amount due and how to pay. Nothing about a
consumer: a lead is its reference, service and state. Letter paper; a month of a hundred leads
fits on two or three pages, the table's heading repeated on each.

The PDF is written uncompressed with a fixed creation date (the issue date): the same invoice gives
the same bytes, and its text can be read straight from them.
"""

from __future__ import annotations

from datetime import datetime

from fpdf import FPDF
from fpdf.enums import XPos, YPos
from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.kernel.clock import as_utc
from servicematch.ledger.invoice_settling import invoice_label
from servicematch.ledger.models import AccountKind, Invoice, InvoiceLine, LedgerAccount

FONT = "helvetica"
# The core fonts hold Latin-1 only: the usual typographic characters are written plainly.
PLAIN = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
                       "\u2026": "...", "\u00a0": " "})
HOW_TO_PAY = ("How to pay: by card, sign in to your {brand} portal and choose Add funds; the payment is credited "
              "to your balance at once. By wire transfer or cheque, quote the invoice number {label}; your "
              "account manager gives you our bank details. Credits and approved returns are taken off your "
              "balance, never refunded to a card.")
COLUMNS = ("Date", "Reference", "Description", "Amount")
WIDTHS = ((24, "L"), (26, "L"), (100, "L"), (36, "R"))
ROW_HEIGHT = 4.8
# Only the description is long enough to need cutting to its column.
DESCRIPTION_WIDTH = 100


def plain(text: str | None) -> str:
    return (text or "").translate(PLAIN).encode("latin-1", "replace").decode("latin-1")


def money(cents: int) -> str:
    """-123456 -> "-$1,234.56"."""
    return f"{'-' if cents < 0 else ''}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def month_name(month: str) -> str:
    return datetime(int(month[:4]), int(month[5:7]), 1).strftime("%B %Y")


def day(moment: datetime) -> str:
    return f"{as_utc(moment):%b %d, %Y}"


class _InvoicePdf(FPDF):
    def __init__(self, footer_text: str) -> None:
        super().__init__(orientation="portrait", unit="mm", format="letter")
        self.footer_text = footer_text

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(FONT, size=8)
        self.set_text_color(100, 100, 100)
        self.cell(0, 5, f"{self.footer_text} - page {self.page_no()} of {{nb}}", align="C")


def render_invoice(invoice: Invoice, lines: list[InvoiceLine], *, account_name: str, account_kind: str,
                   brand: str) -> bytes:
    """The invoice's PDF."""
    label = invoice_label(invoice.number)
    pdf = _InvoicePdf(plain(f"{brand} invoice {label}"))
    pdf.set_compression(False)
    pdf.set_creation_date(as_utc(invoice.issued_at))
    pdf.set_title(plain(f"{brand} invoice {label}"))
    pdf.set_author(plain(brand))
    pdf.set_margins(15, 15, 15)
    pdf.set_auto_page_break(auto=True, margin=18)
    pdf.add_page()
    _heading(pdf, invoice, label, plain(brand), plain(account_name), account_kind)
    _lines(pdf, lines, invoice.month)
    pdf.ln(5)
    pdf.set_font(FONT, size=8.5)
    pdf.set_text_color(60, 60, 60)
    pdf.multi_cell(0, 4, plain(HOW_TO_PAY.format(brand=brand, label=label)), align="L")
    return bytes(pdf.output())


def _heading(pdf: FPDF, invoice: Invoice, label: str, brand: str, account_name: str, account_kind: str) -> None:
    """Our name and the number across the top; who and when on the left, the totals on the right."""
    pdf.set_font(FONT, style="B", size=18)
    pdf.cell(100, 10, brand)
    pdf.cell(0, 10, f"Invoice {label}", align="R", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(3)
    top = pdf.get_y()
    who = "Buyer" if account_kind == AccountKind.BUYER else "Provider"
    facts = [("Bill to", account_name or "-"), ("Account", who), ("Invoice number", label),
             ("Month", month_name(invoice.month)), ("Issued", day(invoice.issued_at)), ("Due", day(invoice.due_at))]
    for name, value in facts:
        pdf.set_font(FONT, style="B", size=9.5)
        pdf.cell(30, 5.5, name)
        pdf.set_font(FONT, size=9.5)
        pdf.cell(58, 5.5, _fitted(pdf, value, 57), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    left_bottom = pdf.get_y()
    pdf.set_y(top)
    _summary(pdf, invoice, x=pdf.l_margin + 96)
    pdf.set_y(max(left_bottom, pdf.get_y()) + 5)


def _summary(pdf: FPDF, invoice: Invoice, *, x: float) -> None:
    """The totals, signed as the balance moves: a charge takes from it, a payment adds to it."""
    rows = [("Opening balance", invoice.opening_cents), ("Charges", invoice.charges_cents),
            ("Credits, returns, adjustments", invoice.credits_cents), ("Payments", invoice.payments_cents),
            ("Closing balance", invoice.closing_cents)]
    pdf.set_font(FONT, size=9.5)
    for name, cents in rows:
        pdf.set_x(x)
        pdf.cell(55, 5.5, name)
        pdf.cell(0, 5.5, money(cents), align="R", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_x(x)
    pdf.set_font(FONT, style="B", size=11.5)
    pdf.cell(55, 8, "Amount due", border="T")
    pdf.cell(0, 8, money(invoice.due_cents), align="R", border="T", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_x(x)
    pdf.set_font(FONT, size=8)
    pdf.set_text_color(60, 60, 60)
    pdf.multi_cell(0, 3.8, "A negative balance is what is owed; a positive one is money held for future leads."
                   + ("" if invoice.due_cents else " Nothing is due: thank you."), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_text_color(0, 0, 0)


def _lines(pdf: FPDF, lines: list[InvoiceLine], month: str) -> None:
    """One row per line, the heading again at the top of each page. Rows are drawn as plain text at
    set places: fpdf2's cells and tables lay each piece of text out again and cost five to ten times
    as much, which a month of a thousand invoices feels."""
    pdf.set_font(FONT, style="B", size=11.5)
    pdf.cell(0, 8, f"Activity in {month_name(month)}", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    if not lines:
        pdf.set_font(FONT, size=9)
        pdf.cell(0, 6, "No charges, credits or payments this month.", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        return
    _row(pdf, COLUMNS, heading=True)
    for line in lines:
        if pdf.get_y() + ROW_HEIGHT > pdf.page_break_trigger:
            pdf.add_page()
            _row(pdf, COLUMNS, heading=True)
        _row(pdf, (day(line.at), line.reference or "", plain(line.description), money(line.amount_cents)))
    pdf.set_x(pdf.l_margin)


def _row(pdf: FPDF, cells: tuple[str, str, str, str], *, heading: bool = False) -> None:
    """One row from the current height: each column's text on one baseline, a rule under it."""
    top, left = pdf.get_y(), pdf.l_margin
    if heading:
        pdf.set_font(FONT, style="B", size=8.5)
        pdf.set_fill_color(230, 234, 240)
        pdf.rect(left, top, sum(width for width, _ in WIDTHS), ROW_HEIGHT, style="F")
    elif pdf.font_style:
        pdf.set_font(FONT, size=8.5)
    baseline, x = top + ROW_HEIGHT - 1.5, left
    for (width, align), text in zip(WIDTHS, cells, strict=True):
        text = _fitted(pdf, text, width - 2) if width >= DESCRIPTION_WIDTH else text
        at = x + width - 1 - pdf.get_string_width(text) if align == "R" else x + 1
        pdf.text(at, baseline, text)
        x += width
    pdf.line(left, top + ROW_HEIGHT, x, top + ROW_HEIGHT)
    pdf.set_y(top + ROW_HEIGHT)


def _fitted(pdf: FPDF, text: str, width: float) -> str:
    """The text cut to the column's width, with an ellipsis when it is cut."""
    if pdf.get_string_width(text) <= width:
        return text
    while text and pdf.get_string_width(text + "...") > width:
        text = text[:-1]
    return text + "..."


def invoice_lines(session: Session, invoice_id: str) -> list[InvoiceLine]:
    return list(session.scalars(select(InvoiceLine).where(InvoiceLine.invoice_id == invoice_id)
                                .order_by(InvoiceLine.at, InvoiceLine.id)))


def invoice_pdf(session: Session, invoice: Invoice, brand: str) -> bytes:
    """The PDF kept with the invoice (the one mailed), or one built now the same way."""
    if invoice.pdf:
        return invoice.pdf
    account = session.get(LedgerAccount, invoice.account_id)
    return render_invoice(invoice, invoice_lines(session, invoice.id), account_name=account.name,
                          account_kind=account.kind, brand=brand)
