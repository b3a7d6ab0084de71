"""A provider's profile in the portal: what it offers, where, when, how much, paused or not.

Services, area and daily cap are the directory's own columns (delivery/providers.py) and
matching reads them, as it reads the hours and the pause; the weekly budget and auto-accept
govern the provider's offers (routing/offers.py, docs/portal.md); the minimum quality score keeps
leads scored under it from the provider (routing/buyer_rules.py, docs/quality.md).
"""

from __future__ import annotations

from datetime import time
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session, object_session

from servicematch.catalog.loader import CatalogIndex
from servicematch.delivery import providers as directory
from servicematch.delivery.models import PausedBy, Provider, ProviderMode
from servicematch.delivery.quality_minimum import HIGHEST_SCORE
from servicematch.delivery.ratings import provider_ratings
from servicematch.delivery.schemas import ProviderUpdate
from servicematch.errors import ServiceMatchError
from servicematch.intake.schemas import text
from servicematch.kernel.numbers import Number, whole_number
from servicematch.portal import rules
from servicematch.portal.licences import licences_needed
from servicematch.routing.hours import DAYS, HoursError, parse_hours
from servicematch.routing.pricing import VERTICAL_NAMES, lead_price_cents

Day = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
# The zones of the fifty states and DC, as a phone's picker lists them.
TIME_ZONES = ("America/New_York", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles",
              "America/Anchorage", "Pacific/Honolulu")
MAX_DAILY_CAP = 10_000
MAX_WEEKLY_BUDGET = 1_000_000
PAUSED_BY_US = "Our team paused your account. Contact us to resume it."


class ProviderHours(BaseModel):
    """When leads may come: these days, from `opens` to `closes` (24-hour), in `timeZone`."""

    model_config = ConfigDict(extra="forbid")

    days: list[Day] = Field(min_length=1, max_length=7)
    opens: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    closes: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$|^24:00$")
    timeZone: Literal[TIME_ZONES]  # type: ignore[valid-type]


class ProviderRating(BaseModel):
    """Consumers' rating of the provider, hidden reviews left out."""

    average: float | None = Field(description="Average stars, 1-5, one decimal place; null without reviews")
    count: int


class LeadPrice(BaseModel):
    """What one accepted lead of a vertical the provider serves costs it."""

    vertical: str
    verticalName: str
    sharedCents: int
    exclusiveCents: int


class ProviderProfile(BaseModel):
    """The provider as its portal shows it."""

    id: str
    name: str
    email: str
    contactName: str | None
    phone: str | None
    services: list[str]
    zips: list[str]
    radiusMiles: float | None
    states: list[str]
    hours: ProviderHours | None
    dailyCap: int | None
    weeklyBudget: float | None = Field(description="Dollars")
    active: bool
    pausedBy: Literal["operator", "provider"] | None
    autoAccept: bool
    exclusiveLeads: bool = Field(description="Opted in to exclusive leads: offered alone, at the exclusive price")
    minQuality: int | None = Field(description="Least quality score (0-100) of a lead you are sent or offered; "
                                               "null: any")
    leadPrices: list[LeadPrice] = Field(description="The price of a lead in each vertical of the provider's services")
    mode: Literal["direct", "review"]
    verified: bool
    licenceNumber: str | None
    licenceState: str | None
    licencesNeeded: list[str] = Field(description="What the chosen services need a licence for")
    rating: ProviderRating


class ProviderProfileChanges(BaseModel):
    """Only the fields sent change; null clears the optional ones (hours, caps, radius, licence)."""

    model_config = ConfigDict(extra="forbid")

    services: list[text(80)] | None = Field(default=None, max_length=rules.MAX_SERVICES * 2)
    zips: list[text(10)] | None = Field(default=None, max_length=rules.MAX_ZIPS * 2)
    radiusMiles: Number | None = None
    states: list[text(4)] | None = Field(default=None, max_length=60)
    hours: ProviderHours | None = None
    dailyCap: whole_number(ge=1, le=MAX_DAILY_CAP) | None = None
    weeklyBudget: Number | None = Field(default=None, ge=1, le=MAX_WEEKLY_BUDGET)
    autoAccept: bool | None = None
    exclusiveLeads: bool | None = None
    minQuality: whole_number(le=HIGHEST_SCORE) | None = None
    licenceNumber: text(60) | None = None
    licenceState: text(4) | None = None


def hours_text(hours: ProviderHours | None) -> str | None:
    """The stored form routing/hours.py reads: "Mon,Tue 08:00-18:00 America/Chicago"."""
    if hours is None:
        return None
    days = ",".join(day.title() for day in DAYS if day in hours.days)
    text_form = f"{days} {hours.opens}-{hours.closes} {hours.timeZone}"
    try:
        parse_hours(text_form)
    except HoursError as exc:
        raise ServiceMatchError("Check the hours.", fields={"hours": str(exc)}, status_code=422) from exc
    return text_form


def hours_of(stored: str | None) -> ProviderHours | None:
    try:
        parsed = parse_hours(stored)
    except HoursError:
        return None
    if parsed is None or parsed.zone.key not in TIME_ZONES:
        return None
    closes = "24:00" if parsed.end == time.max else parsed.end.strftime("%H:%M")
    return ProviderHours(days=[DAYS[n] for n in sorted(parsed.days)], opens=parsed.start.strftime("%H:%M"), closes=closes,
                 timeZone=parsed.zone.key)


def profile_of(provider: Provider) -> ProviderProfile:
    # Read in the provider's own session, which every caller has open.
    rating = provider_ratings(session=object_session(provider), provider_ids=[provider.id])[provider.id]
    return ProviderProfile(
        id=provider.id, name=provider.name, email=provider.contact_email, contactName=provider.contact_name,
        phone=provider.phone, services=list(provider.services or []), zips=list(provider.zips or []),
        radiusMiles=provider.radius_miles, states=list(provider.states or []), hours=hours_of(provider.hours),
        dailyCap=provider.daily_cap,
        weeklyBudget=None if provider.weekly_budget_cents is None else provider.weekly_budget_cents / 100,
        active=provider.active, pausedBy=provider.paused_by, autoAccept=provider.auto_accept,
        exclusiveLeads=provider.exclusive_leads, minQuality=provider.min_quality, leadPrices=lead_prices(provider),
        mode=provider.mode if provider.mode in (ProviderMode.DIRECT, ProviderMode.REVIEW) else ProviderMode.REVIEW,
        verified=provider.verified_at is not None, licenceNumber=provider.licence_number,
        licenceState=provider.licence_state, licencesNeeded=licences_needed(provider.services or []),
        rating=ProviderRating(average=rating.average, count=rating.count))


def lead_prices(provider: Provider) -> list[LeadPrice]:
    """Prices in the verticals of the provider's services, as the portal stores them ("vertical/slug";
    an operator's bare slugs name no vertical, and list none)."""
    verticals = sorted({service.split("/", 1)[0] for service in provider.services or [] if "/" in service})
    return [LeadPrice(vertical=vertical, verticalName=VERTICAL_NAMES.get(vertical, vertical.title()),
                      sharedCents=lead_price_cents(provider, vertical, "", exclusive=False),
                      exclusiveCents=lead_price_cents(provider, vertical, "", exclusive=True))
            for vertical in verticals]


def change_profile(session: Session, catalog: CatalogIndex, provider: Provider, changes: ProviderProfileChanges) -> list[str]:
    """Apply the changes sent, all checked before any is written; the names of the fields changed."""
    sent = changes.model_fields_set
    problems = rules.Problems()
    services = rules.clean_services(changes.services, catalog, problems) if "services" in sent else provider.services
    area = None
    if sent & {"zips", "radiusMiles", "states"}:
        area = rules.clean_area(
            zips=changes.zips if "zips" in sent else provider.zips or [],
            radius_miles=changes.radiusMiles if "radiusMiles" in sent else provider.radius_miles,
            states=changes.states if "states" in sent else provider.states or [], problems=problems)
    number, state = rules.clean_licence(
        services=services, problems=problems,
        number=changes.licenceNumber if "licenceNumber" in sent else provider.licence_number,
        state=changes.licenceState if "licenceState" in sent else provider.licence_state)
    problems.raise_any("The profile was not saved: some answers need another look.")
    hours = hours_text(changes.hours) if "hours" in sent else provider.hours
    update = {"services": services, "daily_cap": changes.dailyCap if "dailyCap" in sent else provider.daily_cap}
    if area is not None:
        update |= {"zips": area.zips, "radius_miles": area.radius_miles, "states": area.states}
    directory.update_provider(session=session, provider_id=provider.id, catalog=catalog,
                              changes=ProviderUpdate(**update))
    if (number, state) != (provider.licence_number, provider.licence_state):
        # A new licence is not the one an operator checked: the badge waits for the next check.
        provider.licence_number, provider.licence_state, provider.verified_at = number, state, None
    provider.hours = hours
    if "weeklyBudget" in sent:
        provider.weekly_budget_cents = None if changes.weeklyBudget is None else round(changes.weeklyBudget * 100)
    if "autoAccept" in sent and changes.autoAccept is not None:
        provider.auto_accept = changes.autoAccept
    if "exclusiveLeads" in sent and changes.exclusiveLeads is not None:
        provider.exclusive_leads = changes.exclusiveLeads
    if "minQuality" in sent:
        provider.min_quality = changes.minQuality
    return sorted(sent)


def pause(provider: Provider) -> None:
    """No new leads until the provider resumes."""
    if provider.active:
        provider.active, provider.paused_by = False, PausedBy.PROVIDER


def resume(provider: Provider) -> None:
    """Leads again, unless an operator paused the provider: then only an operator resumes it."""
    if provider.paused_by == PausedBy.OPERATOR:
        raise ServiceMatchError(PAUSED_BY_US, status_code=409)
    provider.active, provider.paused_by = True, None
