"""Each issued invoice is mailed once, its PDF attached, to its account's people, as its hold notices
are (a buyer's people who are not switched off; a provider's portal accounts, else its contact
address), and the worker's chore issues the month just ended once, then mails."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

import pytest
from buyer_fixtures import buyer_person, make_buyer  # noqa: F401 (fixtures)
from invoice_support import ISSUED, MONTH, charge, invoice_of, issue, ledger_account, payment
from portal_support import Mailbox, body

from servicematch.console import invoice_mail
from servicematch.console.invoice_mail import MonthlyInvoices, mail_invoices
from servicematch.delivery.models import Provider
from servicematch.ledger import invoices
from servicematch.ledger.models import AccountKind
from servicematch.outbound.outcome import Outcome, SendResult
from servicematch.portal.models import ProviderAccount

NOW = ISSUED + timedelta(minutes=5)


@pytest.fixture
def settings(settings, tmp_path):
    """Mail kept in this test's own mailbox, links to the site's origin."""
    return settings.model_copy(update={"mail_dir": tmp_path / "mail", "smtp_host": "",
                                       "site_origin": "https://servicematch.example"})


@pytest.fixture
def mailbox(settings) -> Mailbox:
    return Mailbox(settings.mail_dir)


def _provider(app, name: str, contact: str, accounts: dict[str, bool]) -> str:
    with app.state.session_factory() as session:
        provider = Provider(name=name, contact_email=contact, services=["hvac"], states=["TX"])
        session.add(provider)
        session.flush()
        session.add_all([ProviderAccount(provider_id=provider.id, email=email, active=active)
                         for email, active in accounts.items()])
        session.commit()
        return provider.id


def _pdf_of(message: EmailMessage) -> bytes:
    [attached] = list(message.iter_attachments())
    assert attached.get_content_type() == "application/pdf"
    return attached.get_content()


def test_a_buyers_invoice_goes_to_its_people_once_with_the_pdf(
        app, settings, mailbox, make_buyer, buyer_person):  # noqa: F811 (the fixtures imported above)
    buyer_id = make_buyer("Leads Direct LLC")
    jane = buyer_person(buyer_id, "jane@leads.example")
    ravi = buyer_person(buyer_id, "ravi@leads.example", password=None)  # invited, no password chosen yet
    buyer_person(buyer_id, "gone@leads.example", active=False)
    buyer_person(make_buyer("Other Buyer"), "other@buyer.example")
    account = ledger_account(app, AccountKind.BUYER, buyer_id, name="Leads Direct LLC", net_days=10)
    charge(app, account, 4_550)
    issue(app)

    assert mail_invoices(app.state.session_factory, settings, NOW) == 1

    invoice = invoice_of(app, account)
    for person in (jane, ravi):
        [message] = mailbox.to(person.email)
        assert str(message["Subject"]) == "ServiceMatch invoice INV-000001 for March 2025"
        text = body(message)
        assert "Amount due: $45.50, by Apr 11, 2025." in text
        assert f"https://servicematch.example/buyer/invoices/{invoice.id}" in text
        assert b"INV-000001" in _pdf_of(message) and _pdf_of(message) == invoice.pdf
    for nobody in ("gone@leads.example", "other@buyer.example"):
        assert mailbox.to(nobody) == []
    assert invoice.emailed_at is not None
    assert mail_invoices(app.state.session_factory, settings, NOW) == 0
    assert len(mailbox.to(jane.email)) == 1


def test_a_providers_invoice_goes_to_its_portal_accounts_else_to_its_contact_address(app, settings, mailbox):
    with_portal = _provider(app, "Cool Air", "office@coolair.example",
                            {"ana@coolair.example": True, "old@coolair.example": False})
    without = _provider(app, "Roof Pros", "billing@roofpros.example", {})
    for owner in (with_portal, without):
        charge(app, ledger_account(app, AccountKind.PROVIDER, owner, name=owner), 3_000)
    issue(app)
    assert mail_invoices(app.state.session_factory, settings, NOW) == 2
    [to_ana] = mailbox.to("ana@coolair.example")
    assert "/pro/money/invoices/" in body(to_ana)
    assert mailbox.to("old@coolair.example") == [] and mailbox.to("office@coolair.example") == []
    assert len(mailbox.to("billing@roofpros.example")) == 1


def test_an_invoice_no_one_received_is_tried_again_and_an_old_one_is_left(app, settings, mailbox, monkeypatch):
    owner = _provider(app, "Cool Air", "office@coolair.example", {})
    account = ledger_account(app, AccountKind.PROVIDER, owner, name="Cool Air")
    charge(app, account, 3_000)
    issue(app)
    refused = SendResult(outcome=Outcome.REJECTED, target="mailto:x", duration_ms=1, status_code=550, error="no")
    monkeypatch.setattr(invoice_mail, "send_message", lambda **_: refused)
    assert mail_invoices(app.state.session_factory, settings, NOW) == 0
    assert invoice_of(app, account).emailed_at is None
    monkeypatch.undo()
    assert mail_invoices(app.state.session_factory, settings, NOW + timedelta(days=8)) == 0  # a week on: let go
    assert mail_invoices(app.state.session_factory, settings, NOW + timedelta(hours=1)) == 1
    assert len(mailbox.to("office@coolair.example")) == 1


def test_the_chore_issues_the_month_just_ended_once_then_mails(app, settings, mailbox, monkeypatch):
    owner = _provider(app, "Cool Air", "office@coolair.example", {})
    account = ledger_account(app, AccountKind.PROVIDER, owner, name="Cool Air")
    charge(app, account, 3_000)
    payment(app, account, 3_000, at=ISSUED + timedelta(days=3))
    clock = [NOW]
    issued_months = []
    issue_month = invoices.issue_month
    monkeypatch.setattr(invoice_mail, "issue_month",
                        lambda factory, catalog, month, now: issued_months.append(month) or issue_month(
                            factory, catalog, month, now))
    chore = MonthlyInvoices(session_factory=app.state.session_factory, settings=settings, clock=lambda: clock[0])

    chore.run()
    chore.run()
    assert issued_months == [MONTH]
    assert invoice_of(app, account).due_cents == 3_000 and len(mailbox.to("office@coolair.example")) == 1

    clock[0] = NOW + timedelta(days=31)  # May: April is issued (paid in April, nothing due)
    chore.run()
    assert issued_months == [MONTH, "2025-04"]
    april = invoice_of(app, account, "2025-04")
    assert (april.opening_cents, april.payments_cents, april.due_cents) == (-3_000, 3_000, 0)
    assert len(mailbox.to("office@coolair.example")) == 2
