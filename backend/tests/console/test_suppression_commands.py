"""`servicematch suppression import|lists|remove`, as an operator runs them against the database
named by SERVICEMATCH_DATABASE_URL."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.console import suppression_commands
from servicematch.console.suppression_commands import suppression
from servicematch.quality import suppression_import
from servicematch.settings import get_settings


@pytest.fixture
def cli(app, monkeypatch):
    """Runs `suppression ...` with the test database's settings in the environment."""
    monkeypatch.setenv("SERVICEMATCH_DATABASE_URL", app.state.settings.database_url)
    monkeypatch.setenv("SERVICEMATCH_ENVIRONMENT", "test")
    get_settings.cache_clear()

    def run(*args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(suppression, list(args), input=input, catch_exceptions=False)

    yield run
    get_settings.cache_clear()


def _file(tmp_path: Path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("".join(f"{line}\n" for line in lines))
    return str(path)



def test_an_operator_imports_a_plain_file_and_again_adds_nothing(cli, tmp_path):
    phones = _file(tmp_path, "litigators.csv", ["(512) 555-0142", "+1 512 555 0143", "", "call me", "5125550142"])
    first = cli("import", phones, "--list", "litigators", "--description", "TCPA litigators")
    assert first.exit_code == 0, first.output
    assert first.stdout.splitlines()[:3] == [
        "list litigators (phone, new): 2 entries added",
        "  5 lines: 3 valid (1 on the list already or repeated), 1 bad, 1 blank",
        "  bad lines: 4",
    ]
    again = cli("import", phones, "--list", "litigators")
    assert again.stdout.splitlines()[0] == "list litigators (phone, existing): 0 entries added"
    listed = cli("lists").stdout.splitlines()
    assert listed[0].split() == ["name", "kind", "buyer", "entries", "created"]
    assert listed[1].split()[:4] == ["litigators", "phone", "(global)", "2"]
    assert listed[1].endswith("by cli")


def test_a_buyers_hashed_list_names_the_buyer_by_name_or_id(make_buyer, app, cli, tmp_path):
    buyer_id = make_buyer("Leads Direct")
    digests = _file(tmp_path, "customers.txt", [hashlib.md5(b"maria@example.com").hexdigest().upper()])
    done = cli("import", digests, "--list", "leads-direct-customers", "--buyer", "leads direct", "--hashed", "md5",
               "--kind", "email")
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("list leads-direct-customers (email, new): 1 entries added")
    assert cli("import", digests, "--list", "other", "--buyer", buyer_id, "--hashed", "md5",
               "--kind", "email").exit_code == 0
    listed = [line.split()[:5] for line in cli("lists").stdout.splitlines()[1:]]
    assert listed == [["leads-direct-customers", "email", "Leads", "Direct", "1"],
                      ["other", "email", "Leads", "Direct", "1"]]


def test_mistakes_are_one_clear_line_and_exit_status_1(cli, tmp_path):
    digests = _file(tmp_path, "d.txt", [hashlib.sha256(b"5125550142").hexdigest()])
    no_kind = cli("import", digests, "--list", "customers", "--hashed", "sha256")
    assert no_kind.exit_code == 1 and "phones or e-mails" in no_kind.stderr
    no_buyer = cli("import", digests, "--list", "customers", "--buyer", "Nobody", "--hashed", "sha256",
                   "--kind", "phone")
    assert no_buyer.exit_code == 1 and "No buyer is named 'Nobody'" in no_buyer.stderr
    wrong = cli("import", digests, "--list", "customers", "--hashed", "md5", "--kind", "phone")
    assert wrong.exit_code == 1 and "None of the 1 lines is an MD5 digest" in wrong.stderr
    missing = cli("import", str(tmp_path / "missing.txt"), "--list", "customers")
    assert missing.exit_code == 1 and "cannot read" in missing.stderr
    assert cli("lists").stdout == "no suppression lists\n"


def test_a_big_file_reports_its_progress_on_stderr(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(suppression_import, "BATCH_LINES", 10)
    monkeypatch.setattr(suppression_commands, "PROGRESS_EVERY", 0)
    digests = _file(tmp_path, "big.txt", [hashlib.sha256(str(n).encode()).hexdigest() for n in range(35)])
    done = cli("import", digests, "--list", "big", "--hashed", "sha256", "--kind", "phone")
    assert done.exit_code == 0, done.output
    progress = done.stderr.splitlines()
    # A line a batch read (four), and one when they are all added.
    assert len(progress) == 5 and progress[0].startswith("  10 lines read (")
    assert progress[0].endswith("10 valid, 0 bad; 0 entries added so far")
    assert progress[-1].endswith("35 valid, 0 bad; 35 entries added so far")
    assert "35 entries added" in done.stdout


def test_standard_input_and_replace(cli, tmp_path):
    assert cli("import", "-", "--list", "dnc-internal", input="5125550142\n5125550143\n").exit_code == 0
    replaced = cli("import", "-", "--list", "dnc-internal", "--replace", input="5125550144\n")
    assert replaced.stdout.splitlines()[0] == "list dnc-internal (phone, existing): 1 entries added"
    assert "  replaced: 2 entries removed first" in replaced.stdout.splitlines()
    assert cli("lists").stdout.splitlines()[1].split()[3] == "1"


def test_remove_asks_first_unless_told_yes(cli):
    cli("import", "-", "--list", "complainers", input="maria@example.com\n")
    kept = cli("remove", "complainers", input="n\n")
    assert kept.exit_code == 1 and "Remove complainers and its 1 entries?" in kept.output
    assert "complainers" in cli("lists").stdout
    removed = cli("remove", "Complainers", "--yes")
    assert removed.stdout == "removed complainers (1 entries)\n"
    assert cli("lists").stdout == "no suppression lists\n"
    unknown = cli("remove", "complainers", "--yes")
    assert unknown.exit_code == 1 and "No suppression list is named" in unknown.stderr


def _audit(app) -> list[tuple[str, str, str, dict]]:
    with app.state.session_factory() as session:
        rows = session.scalars(select(AuditEntry).where(AuditEntry.action.like("suppression.%"))
                               .order_by(AuditEntry.id)).all()
        return [(row.action, row.operator_email, row.target, row.detail) for row in rows]


def test_an_import_and_a_removal_from_the_command_line_are_on_the_audit_log(app, cli, tmp_path):
    phones = _file(tmp_path, "litigators.csv", ["(512) 555-0142", "call me"])
    assert cli("import", phones, "--list", "litigators").exit_code == 0
    assert cli("import", "-", "--list", "litigators", input="(512) 555-0143\n").exit_code == 0
    refused = cli("import", phones, "--list", "litigators", "--hashed", "md5")
    assert refused.exit_code == 1
    assert cli("remove", "litigators", "--yes").exit_code == 0
    entries = _audit(app)
    assert [(action, who) for action, who, _, _ in entries] == [
        ("suppression.import", "cli"), ("suppression.import", "cli"), ("suppression.remove", "cli")]
    first, second, removal = entries
    assert first[2] == second[2] == removal[2]  # the list's id
    assert first[3] == {"name": "litigators", "kind": "phone", "buyerId": None, "hashed": None, "created": True,
                        "replace": False, "lines": 2, "added": 1, "bad": 1, "removed": 0}
    assert second[3]["created"] is False and second[3]["added"] == 1
    assert removal[3] == {"name": "litigators", "entries": 2}
