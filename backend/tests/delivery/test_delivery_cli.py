"""Operator commands: providers add|list|disable, leads show, deliveries retry."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from delivery_support import deliveries_of
from sqlalchemy import select

from servicematch.cli import main
from servicematch.delivery.models import Provider
from servicematch.outbound.signing import signing_key
from servicematch.settings import get_settings


@pytest.fixture
def cli(monkeypatch, settings):
    """Run the CLI against the test database, reading settings from the environment like a shell."""
    for name, value in {"DATABASE_URL": settings.database_url, "DATA_KEY": settings.data_key,
                        "ENVIRONMENT": "test", "BUYER_URL": settings.buyer_url}.items():
        monkeypatch.setenv(f"SERVICEMATCH_{name}", value)
    get_settings.cache_clear()
    yield lambda *args: CliRunner().invoke(main, list(args), catch_exceptions=False)
    get_settings.cache_clear()


def test_add_list_and_disable_providers(cli, app):
    added = cli("providers", "add", "--name", "Cool Air", "--email", "dispatch@coolair.example",
                "--service", "hvac", "--state", "TX,OK", "--zip", "78701", "--radius", "20", "--daily-cap", "5")
    assert added.exit_code == 0, added.output
    provider_id = added.output.split()[2]

    listed = cli("providers", "list").output
    assert "Cool Air" in listed and "TX, OK" not in listed and "OK, TX, 78701 (+20 mi)" in listed
    assert cli("providers", "disable", provider_id).exit_code == 0
    assert "DISABLED" in cli("providers", "list").output


def test_adding_a_provider_with_bad_input_says_why(cli, app):
    result = cli("providers", "add", "--name", "X", "--email", "not-an-email", "--service", "hvac",
                 "--state", "TX")
    assert result.exit_code != 0 and "email" in result.output.lower()


def test_a_provider_added_with_a_webhook_and_no_secret_gets_a_whsec_secret(cli, app, session_factory):
    added = cli("providers", "add", "--name", "Cool Air", "--email", "dispatch@coolair.example",
                "--service", "hvac", "--state", "TX", "--webhook-url", "https://coolair.example/hooks")
    assert added.exit_code == 0, added.output
    provider_id, printed = added.output.split()[2], added.output.split()[-1]
    typed = cli("providers", "add", "--name", "Own Secret", "--email", "own@example.com", "--service", "hvac",
                "--state", "TX", "--webhook-url", "https://own.example/hooks", "--webhook-secret", "s3cret")
    assert typed.exit_code == 0 and "secret" not in typed.output
    with session_factory() as session:
        stored = {p.name: p.webhook_secret for p in session.scalars(select(Provider))}
    assert printed.startswith("whsec_") and len(signing_key(printed)) == 32
    assert stored == {"Cool Air": printed, "Own Secret": "s3cret"} and provider_id in added.output
    refused = cli("providers", "add", "--name", "X", "--email", "x@example.com", "--service", "hvac",
                  "--state", "TX", "--webhook-url", "https://x.example/hooks", "--webhook-secret", "whsec_abc")
    assert refused.exit_code != 0 and "at least 24 bytes" in refused.output


def test_leads_show_prints_deliveries_and_attempts_with_masked_contact(cli, make_lead, worker, receiver):
    lead = make_lead(phone="5125550142", email="maria.garcia@example.com")
    receiver.mode = "reject"
    worker.run_until_idle()

    output = cli("leads", "show", lead.request_id).output
    assert lead.request_id in output and "buyer: REJECTED after 1 attempt(s)" in output
    assert "HTTP 400" in output and "zip not served" in output
    assert "m***@example.com" in output and "***-***-0142" in output
    assert "maria.garcia@example.com" not in output and "5125550142" not in output


def test_leads_show_finds_a_lead_by_its_reference_as_the_consumer_reads_it(cli, make_lead):
    lead = make_lead()
    shown = f"{lead.reference[:4]}-{lead.reference[4:]}"
    for wanted in (shown, lead.reference.lower(), lead.request_id):
        result = cli("leads", "show", wanted)
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[0].startswith(f"Lead {shown}  requestId {lead.request_id}  "), wanted
    assert '"reference": "' + shown + '"' in cli("leads", "show", shown, "--json").output
    missing = cli("leads", "show", "0000-0000")
    assert missing.exit_code != 0 and "No lead with the requestId or reference 0000-0000" in missing.output


def test_deliveries_retry_queues_a_rejected_delivery_again(cli, make_lead, worker, receiver, session_factory):
    lead = make_lead()
    receiver.mode = "reject"
    worker.run_until_idle()
    [delivery] = deliveries_of(session_factory, lead.id)

    assert cli("deliveries", "retry", delivery.id).exit_code == 0
    receiver.mode = "ok"
    worker.run_until_idle()
    assert deliveries_of(session_factory, lead.id)[0].status == "delivered"
    again = cli("deliveries", "retry", delivery.id)
    assert again.exit_code != 0 and "only failed or rejected" in again.output


def test_leads_show_escapes_control_characters_from_stored_answers(cli, make_lead, worker, receiver):
    # Stored before intake refused control characters, or by another path: shown, never interpreted.
    lead = make_lead(city="Austin\x1b[2J\x1b]0;owned\x07\r\nconsumer: fake line\u202e")
    receiver.mode = "reject"
    worker.run_until_idle()

    output = cli("leads", "show", lead.request_id).output
    assert "\x1b" not in output and "\x07" not in output and "\r" not in output and "\u202e" not in output
    [consumer_line] = [line for line in output.splitlines() if "consumer:" in line]
    assert "Austin\\x1b[2J\\x1b]0;owned\\x07\\r\\nconsumer: fake line\\u202e" in consumer_line
    assert "\x1b" not in cli("leads", "show", lead.request_id, "--json").output


def test_providers_list_escapes_control_characters_in_stored_names(cli, app, session_factory):
    from servicematch.delivery.models import Provider

    with session_factory() as session:
        session.add(Provider(name="Cool\x1b[31mAir\nFAKE", contact_email="a@example.com",
                             services=["hvac"], states=["TX"], zips=[]))
        session.commit()
    output = cli("providers", "list").output
    assert "\x1b" not in output and "Cool\\x1b[31mAir\\nFAKE" in output
    assert len(output.strip().splitlines()) == 1
