"""API shapes for the provider directory, separate from the table."""

from __future__ import annotations

import re
from datetime import datetime

import us
from pydantic import BaseModel, ConfigDict, EmailStr, Field, field_validator, model_validator

from servicematch.inbound.validation import has_control_characters
from servicematch.kernel.numbers import Number, WholeNumber
from servicematch.outbound.signing import secret_problem

ZIP_PATTERN = re.compile(r"^\d{5}$")
STATE_CODES = {state.abbr for state in us.STATES} | {"DC"}


def _clean_states(values: list[str]) -> list[str]:
    cleaned = sorted({value.strip().upper() for value in values if value.strip()})
    unknown = [code for code in cleaned if code not in STATE_CODES]
    if unknown:
        raise ValueError(f"not US state codes: {', '.join(unknown)}")
    return cleaned


def _clean_zips(values: list[str]) -> list[str]:
    cleaned = sorted({value.strip() for value in values if value.strip()})
    bad = [value for value in cleaned if not ZIP_PATTERN.match(value)]
    if bad:
        raise ValueError(f"ZIP codes are 5 digits: {', '.join(bad)}")
    return cleaned


def _one_line(value: str | None) -> str | None:
    # A name or secret with a line break would forge headers in the provider's e-mail.
    if value is not None and has_control_characters(value):
        raise ValueError("must not contain control characters (such as line breaks)")
    return value


def _clean_secret(value: str | None) -> str | None:
    problem = secret_problem(_one_line(value))
    if problem:
        raise ValueError(problem)
    return value


def _clean_services(values: list[str]) -> list[str]:
    for value in values:
        _one_line(value)
    return values


def _clean_webhook(value: str | None) -> str | None:
    if value is None or not value.strip():
        return None
    value = _one_line(value.strip())
    if not re.match(r"^https?://[^\s/]+", value):
        raise ValueError("must be an http:// or https:// URL")
    return value


# $10,000: more than any lead costs; a bigger number is a typo.
MAX_LEAD_PRICE_CENTS = 1_000_000


class ProviderCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: str = Field(min_length=1, max_length=200)
    contact_email: EmailStr
    webhook_url: str | None = None
    webhook_secret: str | None = Field(default=None, max_length=200)
    services: list[str] = Field(min_length=1)
    states: list[str] = Field(default_factory=list)
    zips: list[str] = Field(default_factory=list)
    radius_miles: Number | None = Field(default=None, gt=0, le=500)
    daily_cap: WholeNumber | None = Field(default=None, ge=1)
    active: bool = True
    # What one accepted lead costs (None: the service's list price), and the monthly credit cap.
    lead_price_cents: WholeNumber | None = Field(default=None, ge=1, le=MAX_LEAD_PRICE_CENTS)
    credit_cap_percent: WholeNumber = Field(default=20, ge=0, le=100)

    _states = field_validator("states")(_clean_states)
    _zips = field_validator("zips")(_clean_zips)
    _webhook = field_validator("webhook_url")(_clean_webhook)
    _text = field_validator("name")(_one_line)
    _secret = field_validator("webhook_secret")(_clean_secret)
    _services = field_validator("services")(_clean_services)

    @model_validator(mode="after")
    def _has_an_area(self) -> ProviderCreate:
        if not self.states and not self.zips:
            raise ValueError("give a service area: states, ZIP codes, or both")
        if self.radius_miles is not None and not self.zips:
            raise ValueError("a radius needs ZIP codes to measure from")
        return self


# What a provider cannot be without: null is refused for these, while null clears the others.
REQUIRED_ON_UPDATE = ("name", "contact_email", "services", "states", "zips", "active", "credit_cap_percent")


class ProviderUpdate(BaseModel):
    """Only the fields sent are changed; the result is checked whole before anything is written."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: str | None = Field(default=None, min_length=1, max_length=200)
    contact_email: EmailStr | None = None
    webhook_url: str | None = None
    webhook_secret: str | None = Field(default=None, max_length=200)
    services: list[str] | None = Field(default=None, min_length=1)
    states: list[str] | None = None
    zips: list[str] | None = None
    radius_miles: Number | None = Field(default=None, gt=0, le=500)
    daily_cap: WholeNumber | None = Field(default=None, ge=1)
    active: bool | None = None
    lead_price_cents: WholeNumber | None = Field(default=None, ge=1, le=MAX_LEAD_PRICE_CENTS)
    credit_cap_percent: WholeNumber | None = Field(default=None, ge=0, le=100)

    _states = field_validator("states")(lambda v: None if v is None else _clean_states(v))
    _zips = field_validator("zips")(lambda v: None if v is None else _clean_zips(v))
    _webhook = field_validator("webhook_url")(_clean_webhook)
    _text = field_validator("name")(_one_line)
    _secret = field_validator("webhook_secret")(_clean_secret)
    _services = field_validator("services")(lambda v: None if v is None else _clean_services(v))

    @field_validator(*REQUIRED_ON_UPDATE, mode="before")
    @classmethod
    def _not_null(cls, value):
        # Validators run only on the fields sent, so None here is an explicit null.
        if value is None:
            raise ValueError("cannot be null (send [] to empty a list)")
        return value


class ProviderPublic(BaseModel):
    """A provider as the admin API shows it: the webhook secret never leaves the server."""

    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    contact_email: str
    webhook_url: str | None
    has_webhook_secret: bool
    services: list[str]
    states: list[str]
    zips: list[str]
    radius_miles: float | None
    daily_cap: int | None
    active: bool
    last_matched_at: datetime | None
    created_at: datetime
    # "direct" (leads sent in full) or "review" (joined through the portal: waits for offers).
    mode: str = "direct"
    # Who paused the provider ("operator" or "provider"); None while active.
    paused_by: str | None = None
    # When an operator checked the provider's licence: its verified badge.
    verified_at: datetime | None = None
    lead_price_cents: int | None = None
    credit_cap_percent: int = 20
    # The webhook's circuit breaker: paused after failures in a row until a probe succeeds.
    webhook_paused_until: datetime | None = None
    webhook_failures: int = 0
    webhook_last_error: str | None = None
