"""The e-mail rule's quick path agrees with the full check (email_validator) on every address."""

from __future__ import annotations

import random

import pytest
from email_validator import SPECIAL_USE_DOMAIN_NAMES, EmailNotValidError, validate_email

from servicematch.inbound.validation import EMAIL_PATTERN, INVALID_EMAIL, check_email


def full_check(address: str) -> str | None:
    """The rule as it was before the quick path: the spec's pattern, then email_validator."""
    candidate = address.strip()
    if not EMAIL_PATTERN.fullmatch(candidate):
        return INVALID_EMAIL
    try:
        validate_email(candidate, check_deliverability=False)
    except EmailNotValidError:
        return INVALID_EMAIL
    return None


def local_parts(draw: random.Random) -> list[str]:
    made = ["a", "bench.mark", "first+tag", "a_b%c-d", ".lead", "trail.", "two..dots", "x" * 64, "x" * 65]
    for _ in range(60):
        made.append("".join(draw.choice("ab._%+-9") for _ in range(draw.randint(1, 70))))
    return made


def domains(draw: random.Random) -> list[str]:
    made = ["example.com", "gmail.com", "Mail.Example.ORG", "a.co", "-lead.com", "trail-.com", "x..com",
            "ab--cd.com", "xn--bcher-kva.com", "xn--zz.com", "123.com", "sub.localhost", "site.local",
            f"{'a' * 63}.com", f"{'a' * 64}.com", ".".join(["a" * 60] * 4) + ".com"]
    made += [f"mail.{name}" for name in SPECIAL_USE_DOMAIN_NAMES if name.isalpha()]
    for _ in range(60):
        labels = ["".join(draw.choice("abz09-") for _ in range(draw.randint(1, 12))) for _ in range(draw.randint(1, 3))]
        made.append(".".join([*labels, draw.choice(["com", "io", "museum", "test", "invalid", "xn--p1ai"])]))
    return made


def test_every_address_of_a_broad_sweep_gets_the_full_checks_verdict():
    draw = random.Random(20261126)
    addresses = [f"{local}@{domain}" for local in local_parts(draw) for domain in domains(draw)]
    addresses += ["x" * 64 + "@" + "b" * 63 + "." + "c" * 63 + "." + "d" * 63 + "." + "e" * 58 + ".com"]
    disagreements = [address for address in addresses if check_email(address) != full_check(address)]
    assert disagreements == []
    verdicts = {check_email(address) for address in addresses}
    assert verdicts == {None, INVALID_EMAIL}  # the sweep holds both kinds


@pytest.mark.parametrize("address", ["bench.mark@example.com", "  padded@example.com  ", "first+tag@mail.co.uk"])
def test_ordinary_addresses_pass(address):
    assert check_email(address) is None


@pytest.mark.parametrize("address", ["two..dots@example.com", ".lead@example.com", "a@site.local",
                                     "a@-lead.com", "a@ab--cd.com", f"{'x' * 200}@{'y' * 50}.com"])
def test_addresses_the_full_check_refuses_stay_refused_after_their_domain_was_accepted(address):
    check_email("someone@example.com")  # the domain's verdict is kept
    assert check_email(address) == INVALID_EMAIL
