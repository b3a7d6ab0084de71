"""The single-value rules shared by /api/validate and lead submission (spec section 5)."""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

import phonenumbers
from email_validator import EmailNotValidError, validate_email

# Spec section 5: letters, digits and ._%+- before @, then a domain with a TLD of 2+ letters.
EMAIL_PATTERN = re.compile(r"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$")
# A local part of the spec's characters that is a dot-atom (RFC 5322): no dot first, last or twice.
PLAIN_LOCAL_PART = re.compile(r"[a-zA-Z0-9_%+-]+(?:\.[a-zA-Z0-9_%+-]+)*")
MAX_PLAIN_ADDRESS = 254  # RFC 5321 4.5.3.1.3 less the angle brackets, as email_validator counts it
# Characters people type around a phone number; anything else makes it invalid.
PHONE_FORMATTING = re.compile(r"[\s().+\-]")
ZIP_PATTERN = re.compile(r"^\d{5}$")
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# C0 and C1 controls (NUL, line breaks, escape, DEL...), Unicode line/paragraph separators and
# lone surrogates: none belongs in a name or an answer, a line break in a header field lets a
# value forge e-mail headers, and PostgreSQL refuses NUL and surrogates outright.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# Free text typed in a textarea may hold tabs and line breaks, and nothing else of the above.
CONTROL_CHARACTERS_BUT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# The date dropdowns offer the current year and 100 earlier (spec section 9).
DATE_YEARS_BACK = 100
# A month a request names ("2026-11", a statement's): none before the service's records could
# start, none past the end of next year. A month near year 9999 has no month after it (a
# statement ends where the next begins), and one that far out is a typo anyway.
MONTH_PATTERN = re.compile(r"([0-9]{4})-(0[1-9]|1[0-2])")
EARLIEST_MONTH = date(2000, 1, 1)
ADULT_AGE = 18

INVALID_EMAIL = "Invalid email format"
PHONE_TOO_SHORT = "Phone number must be at least 10 digits"
INVALID_PHONE = "Invalid phone number"
INVALID_ZIP = "ZIP code must be exactly 5 digits"
INVALID_DATE = "Please choose a real date"
REQUIRED = "This field is required"
UNDER_ADULT_AGE = "You must be at least 18 years old to submit a request."
CONTROL_CHARACTERS_REFUSED = "Remove control characters (such as line breaks or NUL) from this field"


def has_control_characters(value: str, *, allow_line_breaks: bool = False) -> bool:
    pattern = CONTROL_CHARACTERS_BUT_LINES if allow_line_breaks else CONTROL_CHARACTERS
    return pattern.search(value) is not None


def strip_control_characters(value: str) -> str:
    """Request metadata (User-Agent, page URL) is recorded cleaned rather than refused."""
    return CONTROL_CHARACTERS.sub("", value)


def disqualified_message(option: str) -> str:
    """The sentence shown when a disqualifying option is chosen (spec section 4)."""
    return (
        f'Based on your selection of "{option}" to the previous question, we don\'t have any '
        "providers who are able to assist you at this time. Please contact a local provider for "
        "more information."
    )


def age_message(*, age: int, min_age: int, max_age: int) -> str:
    """The sentence for an age outside a field's bounds (spec section 5)."""
    return f"Based on your age ({age}), you do not meet our requirements of {min_age}-{max_age} years old."


def check_email(value: str) -> str | None:
    """None when the address passes the spec's pattern and a full syntax check, else the error."""
    candidate = value.strip()
    if not EMAIL_PATTERN.fullmatch(candidate):
        return INVALID_EMAIL
    if _plainly_valid(candidate):
        return None
    return None if _passes_full_check(candidate) else INVALID_EMAIL


def _passes_full_check(address: str) -> bool:
    try:
        # Deliverability needs DNS; syntax is what can be judged offline and instantly.
        validate_email(address, check_deliverability=False)
    except EmailNotValidError:
        return False
    return True


def _plainly_valid(address: str) -> bool:
    """Whether an address of the spec's characters is one the full check is known to accept.

    Most of the full check's time goes on the domain (Unicode tables, IDNA), and a handful of
    domains (gmail.com, yahoo.com...) cover most visitors: its verdict on a domain is kept. A
    local part of these characters passes it exactly when it is a dot-atom (its length is judged
    only with the whole address's). Anything else (a domain it refused, dots out of place, an
    address over the length limit) gets the full check.
    """
    local, _, domain = address.rpartition("@")
    return (len(address) <= MAX_PLAIN_ADDRESS and PLAIN_LOCAL_PART.fullmatch(local) is not None
            and _domain_accepted(domain))


@lru_cache(maxsize=4096)
def _domain_accepted(domain: str) -> bool:
    """The full check's verdict on a domain, asked with the shortest local part."""
    return _passes_full_check(f"x@{domain}")


def normalise_email(value: str) -> str:
    return value.strip().lower()


def phone_digits(value: str) -> tuple[str | None, str | None]:
    """(10-digit US number, None) when valid, else (None, the error sentence)."""
    stripped = PHONE_FORMATTING.sub("", value)
    if not stripped.isdigit():
        return None, PHONE_TOO_SHORT if not stripped else INVALID_PHONE
    if len(stripped) < 10:
        return None, PHONE_TOO_SHORT
    if len(stripped) == 11 and stripped.startswith("1"):
        stripped = stripped[1:]
    if len(stripped) != 10 or not is_us_number(stripped):
        return None, INVALID_PHONE
    return stripped, None


def is_us_number(ten_digits: str) -> bool:
    """Whether ten digits are a valid US number by phonenumbers' metadata.

    The number is built from its digits rather than with `phonenumbers.parse`, which spends
    three quarters of the check working out what a free-form string holds (12 of 17 us a call).
    """
    if ten_digits[0] in "01":  # no North American area code starts with 0 or 1
        return False
    number = phonenumbers.PhoneNumber(country_code=1, national_number=int(ten_digits))
    # US only: +1 also covers Canada and the Caribbean, which no buyer here serves.
    return phonenumbers.is_valid_number_for_region(number, "US")


def check_phone(value: str) -> str | None:
    """None when the value is a valid US phone number, else the error sentence."""
    return phone_digits(value)[1]


def check_zip(value: str) -> str | None:
    return None if ZIP_PATTERN.fullmatch(value) else INVALID_ZIP


def parse_date(value: str, *, today: date) -> date | None:
    """A yyyy-mm-dd date that exists, is not in the future and is at most 100 years back."""
    if not ISO_DATE.fullmatch(value):
        return None
    try:
        parsed = date.fromisoformat(value)
    except ValueError:
        return None
    if parsed > today or parsed.year < today.year - DATE_YEARS_BACK:
        return None
    return parsed


def latest_month(*, today: date) -> date:
    """The first day of the last month a request may name: December of next year."""
    return date(today.year + 1, 12, 1)


def month_message(*, today: date) -> str:
    return f"Give the month as YYYY-MM, from {EARLIEST_MONTH:%Y-%m} to {latest_month(today=today):%Y-%m}."


def parse_month(value: str, *, today: date) -> date | None:
    """The first day of a "YYYY-MM" month from 2000-01 to December of next year, else None."""
    found = MONTH_PATTERN.fullmatch(value)
    if not found:
        return None
    year, month = int(found.group(1)), int(found.group(2))
    last = latest_month(today=today)
    # Compared before a date is made: year 0 has none.
    if not (EARLIEST_MONTH.year, EARLIEST_MONTH.month) <= (year, month) <= (last.year, last.month):
        return None
    return date(year, month, 1)


def age_on(birth: date, *, today: date) -> int:
    """Whole years between a birth date and today."""
    before_birthday = (today.month, today.day) < (birth.month, birth.day)
    return today.year - birth.year - int(before_birthday)
