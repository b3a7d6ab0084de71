"""Operator commands: `ledger check`."""

from __future__ import annotations

import click

from servicematch.db.session import make_engine, make_session_factory
from servicematch.ledger.check import Findings, run_check
from servicematch.settings import get_settings
from servicematch.terminal import safe_text

# How each proof reads in the summary: what was checked, and what "agrees" means for it.
SUMMARY = (("balance", "account balances", "equal to the sum of their entries"),
           ("sale", "sales", "charged once"),
           ("accepted offer", "accepted offers with a price", "charged once"),
           ("approved return", "approved returns", "returned once"),
           ("approved credit", "approved credits", "credited once"))


@click.group()
def ledger() -> None:
    """The money ledger: every account's entries and balance."""


@ledger.command("check")
def check() -> None:
    """Prove every balance equals its entries, and every sale, accepted offer, approved return and
    approved credit has exactly one entry; list what does not agree. Exit status 1 when anything does not."""
    engine = make_engine(get_settings().database_url)
    try:
        findings = run_check(make_session_factory(engine))
    finally:
        engine.dispose()
    for line in report(findings):
        click.echo(safe_text(line))
    if not findings.ok:
        raise SystemExit(1)


def report(findings: Findings) -> list[str]:
    """The summary, each problem in words, and the verdict."""
    lines = [f"ledger check: {findings.accounts:,} accounts, {findings.entries:,} entries"]
    for proof, what, agrees in SUMMARY:
        checked = findings.checked.get(proof, 0)
        lines.append(f"  {what}: {checked - findings.wrong.get(proof, 0):,} of {checked:,} {agrees}")
    lines.extend(f"problem: {problem}" for problem in findings.problems)
    listed = len(findings.problems)
    if findings.ok:
        lines.append(f"ok: nothing is wrong ({findings.seconds:.1f} s)")
    else:
        more = f", {listed:,} listed" if listed < findings.problem_count else ""
        lines.append(f"NOT OK: {findings.problem_count:,} problems{more} ({findings.seconds:.1f} s)")
    return lines
