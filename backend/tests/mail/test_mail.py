"""One way to send mail: real SMTP when a host is set, else the local mailbox the CLI reads."""

from __future__ import annotations

import stat
from email import message_from_string, policy
from pathlib import Path

import pytest
from click.testing import CliRunner
from delivery_receivers import SmtpReceiver

from servicematch.cli import main
from servicematch.mail.mailbox import LocalMailbox
from servicematch.mail.transport import new_message, send_message
from servicematch.outbound.outcome import Outcome
from servicematch.settings import Settings, get_settings


@pytest.fixture
def smtp():
    server = SmtpReceiver().start()
    yield server
    server.stop()


def _message(settings: Settings, to: str = "ann@example.com", subject: str = "Your request"):
    return new_message(settings=settings, to=to, subject=subject, text="Hello Ann.\n",
                       message_id_key="receipt-1", headers={"X-Test": "yes"})


def test_with_an_smtp_host_the_message_goes_to_that_server(smtp: SmtpReceiver, tmp_path: Path) -> None:
    settings = Settings(smtp_host="127.0.0.1", smtp_port=smtp.port, smtp_starttls=False,
                        mail_dir=tmp_path / "mail")
    result = send_message(settings=settings, message=_message(settings))
    assert result.outcome == Outcome.DELIVERED
    (recipients, content), = smtp.messages
    assert recipients == ["ann@example.com"]
    assert "Subject: Your request" in content and "Hello Ann." in content
    assert "Message-ID: <receipt-1@servicematch>" in content
    assert not (tmp_path / "mail").exists()


def test_a_refused_mailbox_is_a_rejection_and_a_dead_server_is_retried(smtp: SmtpReceiver,
                                                                      tmp_path: Path) -> None:
    settings = Settings(smtp_host="127.0.0.1", smtp_port=smtp.port, smtp_starttls=False)
    smtp.refused.add("gone@example.com")
    assert send_message(settings=settings, message=_message(settings, "gone@example.com")).outcome \
        == Outcome.REJECTED
    smtp.stop()
    down = send_message(settings=settings, message=_message(settings))
    assert down.outcome == Outcome.RETRY and down.error


def test_without_an_smtp_host_messages_are_kept_privately_and_the_cli_prints_them(
        tmp_path: Path, monkeypatch) -> None:
    mail_dir = tmp_path / "mail"
    settings = Settings(smtp_host="", mail_dir=mail_dir)
    assert send_message(settings=settings, message=_message(settings)).outcome == Outcome.DELIVERED
    send_message(settings=settings, message=_message(settings, "bob@example.com", "Code \x1b[31m"))
    first, _second = LocalMailbox(mail_dir).messages()
    assert stat.S_IMODE(first.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(mail_dir.stat().st_mode) == 0o700

    monkeypatch.setenv("SERVICEMATCH_MAIL_DIR", str(mail_dir))
    monkeypatch.setenv("SERVICEMATCH_SMTP_HOST", "")
    get_settings.cache_clear()
    try:
        runner = CliRunner()
        listing = runner.invoke(main, ["mail", "list"])
        assert listing.exit_code == 0, listing.output
        assert first.id in listing.output and "ann@example.com" in listing.output
        assert "\x1b" not in listing.output and "\\x1b[31m" in listing.output
        shown = runner.invoke(main, ["mail", "show", first.id])
        assert shown.exit_code == 0 and "Subject: Your request" in shown.output
        assert "Hello Ann.\n" in shown.output
        assert "\r" not in shown.output and "\\r" not in shown.output  # neither the character nor its escape
        missing = runner.invoke(main, ["mail", "show", "../../etc/passwd"])
        assert missing.exit_code != 0 and "no message with id" in missing.output
    finally:
        get_settings.cache_clear()


def test_forgetting_a_recipient_removes_only_their_messages(tmp_path: Path) -> None:
    settings = Settings(smtp_host="", mail_dir=tmp_path)
    for to in ("ann@example.com", "ANN@example.com", "bob@example.com"):
        send_message(settings=settings, message=_message(settings, to))
    mailbox = LocalMailbox(tmp_path)
    assert mailbox.forget_recipient("ann@example.com") == 2
    assert [m.summary()["to"] for m in mailbox.messages()] == ["bob@example.com"]


def test_names_and_text_beyond_ascii_arrive_as_written_and_long_links_stay_on_their_line(
        smtp: SmtpReceiver, tmp_path: Path) -> None:
    settings = Settings(smtp_host="127.0.0.1", smtp_port=smtp.port, smtp_starttls=False,
                        smtp_sender="Café Leads <leads@example.com>", mail_dir=tmp_path / "mail")
    link = "https://servicematch.example/api/privacy/one-click?t=" + "x" * 150
    message = new_message(settings=settings, to="ann@example.com", subject="Your request — Café repair",
                          text="Hello José,\nyour request is in.\n", message_id_key="receipt-2",
                          headers={"List-Unsubscribe": f"<{link}>"})
    assert send_message(settings=settings, message=message).outcome == Outcome.DELIVERED
    LocalMailbox(tmp_path / "box").keep(message)

    (_, wire), = smtp.messages
    [kept] = LocalMailbox(tmp_path / "box").messages()
    for received in (message_from_string(wire, policy=policy.default), kept.read()):
        assert received["From"].addresses[0].display_name == "Café Leads"
        assert received["Subject"] == "Your request — Café repair"
        assert received["List-Unsubscribe"] == f"<{link}>"
        assert received.get_content().replace("\r\n", "\n") == "Hello José,\nyour request is in.\n"
    assert wire.isascii()  # encoded for any mail server, not raw UTF-8
