"""`servicematch invoices issue --month YYYY-MM` and `invoices list`: a month issued and mailed by
hand, nothing new the second time, a clear refusal of a month that is not one or not over."""

from __future__ import annotations

import pytest
from cli_support import shell_cli
from invoice_support import MONTH, charge, ledger_account
from portal_support import Mailbox

from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import AccountKind


@pytest.fixture
def cli(monkeypatch, settings, tmp_path):
    with shell_cli(monkeypatch, settings, env={"MAIL_DIR": str(tmp_path / "mail"),
                                               "SITE_ORIGIN": "https://servicematch.example"},
                   unset=("SMTP_HOST",)) as run:
        yield run


def test_a_month_is_issued_and_mailed_once_and_listed(app, cli, add_provider, tmp_path):
    provider = add_provider("Cool Air", contact_email="billing@coolair.example")
    account = ledger_account(app, AccountKind.PROVIDER, provider.id, name="Cool Air")
    charge(app, account, 4_500)

    first = cli("invoices", "issue", "--month", MONTH)
    assert first.exit_code == 0, first.output
    assert first.output.strip() == f"{MONTH}: 1 invoices issued, 0 issued before, 1 mailed"
    [message] = Mailbox(tmp_path / "mail").to("billing@coolair.example")
    assert "INV-000001" in str(message["Subject"])
    [attached] = list(message.iter_attachments())
    assert attached.get_filename() == "INV-000001.pdf" and attached.get_content().startswith(b"%PDF-")

    again = cli("invoices", "issue", "--month", MONTH)
    assert again.output.strip() == f"{MONTH}: 0 invoices issued, 1 issued before, 0 mailed"
    assert len(Mailbox(tmp_path / "mail").to("billing@coolair.example")) == 1

    listed = cli("invoices", "list", "--month", MONTH)
    assert "INV-000001  2025-03  provider:Cool Air  open  due $45.00 by" in listed.output
    assert cli("invoices", "list", "--status", "paid").output.strip() == "no invoices"


def test_a_month_that_is_not_one_or_not_over_is_refused_in_words(cli):
    bad = cli("invoices", "issue", "--month", "2025-3")
    assert bad.exit_code != 0 and "YYYY-MM" in bad.output
    running = cli("invoices", "issue", "--month", f"{utcnow():%Y-%m}")
    assert running.exit_code != 0 and "not over yet" in running.output
    assert cli("invoices", "list", "--month", "March").exit_code != 0
