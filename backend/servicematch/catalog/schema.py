"""Schema of the catalogue files (spec section 3). Everything else reads these models."""

from __future__ import annotations

import re
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, model_validator

Slug = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
FieldType = Literal["text", "email", "tel", "select", "textarea", "hidden", "radio", "date", "address"]
Mapping = Literal["cq1", "cq2", "cq3", "cq4", "cq5", "cq6", "cq10", "cq20", "dob"]
CHOICE_TYPES = {"select", "radio"}
# The base fields' own ids: a questionnaire field may not reuse them.
BASE_FIELD_STEP = 98
PHONE_STEP = 99


class CatalogModel(BaseModel):
    # Unknown keys are refused so a typo in a data file fails loudly instead of vanishing.
    model_config = ConfigDict(extra="forbid", frozen=True)


class DateValidation(CatalogModel):
    minAge: int = Field(ge=0, le=130)
    maxAge: int = Field(ge=0, le=130)

    @model_validator(mode="after")
    def _ordered(self) -> DateValidation:
        if self.minAge > self.maxAge:
            raise ValueError("minAge must not exceed maxAge")
        return self


class FieldDefinition(CatalogModel):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    label: str = Field(min_length=1)
    type: FieldType
    required: bool = False
    width: Literal["half", "full"] = "full"
    step: int | None = Field(default=None, ge=1, le=99)
    options: list[str] | None = None
    disqualifiers: list[str] = []
    mapping: Mapping | None = None
    placeholder: str | None = None
    pattern: str | None = None
    minLength: int | None = Field(default=None, ge=0)
    maxLength: int | None = Field(default=None, ge=1)
    autoComplete: str | None = None
    inputMode: Literal["text", "email", "tel", "numeric", "decimal", "search", "url", "none"] | None = None
    dateValidation: DateValidation | None = None
    defaultValue: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> FieldDefinition:
        if self.type in CHOICE_TYPES:
            if not self.options:
                raise ValueError(f"field {self.id!r}: a {self.type} field needs options")
            if len(set(self.options)) != len(self.options):
                raise ValueError(f"field {self.id!r}: options repeat")
        elif self.options:
            raise ValueError(f"field {self.id!r}: only select and radio fields take options")
        unknown = [d for d in self.disqualifiers if d not in (self.options or [])]
        if unknown:
            raise ValueError(f"field {self.id!r}: disqualifiers {unknown} are not among its options")
        if self.dateValidation and self.type != "date":
            raise ValueError(f"field {self.id!r}: dateValidation only applies to date fields")
        if self.pattern is not None:
            re.compile(self.pattern)
        if self.minLength and self.maxLength and self.minLength > self.maxLength:
            raise ValueError(f"field {self.id!r}: minLength exceeds maxLength")
        return self


# Every lead's own source, as its payload to buyers says (consumer.source; spec: always "website").
SITE_SOURCE = "website"


class HiddenParams(CatalogModel):
    vertical: str
    category: str
    source: Literal["website"] = SITE_SOURCE


class Faq(CatalogModel):
    question: str = Field(min_length=1)
    answer: str = Field(min_length=1)


class CallHours(CatalogModel):
    """When a call flow's call centre answers, every day, in its own time zone: the number to call
    is shown only then."""

    timeZone: str = Field(description="IANA name, e.g. America/New_York")
    zoneLabel: str = Field(min_length=1, description="How visitors name the zone, e.g. ET")
    opens: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$", description="24-hour HH:MM")
    closes: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$", description="24-hour HH:MM, after opens")

    @model_validator(mode="after")
    def _consistent(self) -> CallHours:
        try:
            ZoneInfo(self.timeZone)
        except (ZoneInfoNotFoundError, ValueError) as error:
            raise ValueError(f"unknown time zone {self.timeZone!r}") from error
        if self.opens >= self.closes:
            raise ValueError("a call centre closes after it opens")
        return self


class ServiceConfig(CatalogModel):
    """One service's configuration and questionnaire (spec section 3)."""

    id: str = Slug
    vertical: str = Slug
    name: str = Field(min_length=1, description="Display name, e.g. 'Collections and Debt'")
    aliases: list[str] = []
    cid: Literal[640, 847]
    flow: Literal["form", "call"] = "form"
    title: str = Field(min_length=1)
    description: str = Field(min_length=1)
    keywords: list[str] = []
    disclaimer: str | None = None
    ringbaPhoneNumber: str = ""
    ringbaJSid: str = ""
    phoneCallToAction: str = ""
    callHours: CallHours | None = None
    includeBaseFields: bool = True
    fields: list[FieldDefinition] = Field(min_length=1)
    hiddenParams: HiddenParams
    tcpaText: str | None = None
    successMessage: str = Field(min_length=1)
    faqs: list[Faq] = Field(min_length=4)
    # No testimonials: quotes nobody wrote are not published (docs/site-claims.md); a file that still
    # carries them is refused like any unknown key.

    @model_validator(mode="after")
    def _consistent(self) -> ServiceConfig:
        ids = [f.id for f in self.fields]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ValueError(f"service {self.id!r}: field ids repeat: {repeated}")
        mappings = [f.mapping for f in self.fields if f.mapping]
        if len(set(mappings)) != len(mappings):
            raise ValueError(f"service {self.id!r}: two fields share a mapping")
        if self.hiddenParams.vertical != self.vertical:
            raise ValueError(f"service {self.id!r}: hiddenParams.vertical must be {self.vertical!r}")
        if self.flow == "call" and not self.ringbaPhoneNumber:
            raise ValueError(f"service {self.id!r}: a call flow needs ringbaPhoneNumber")
        if self.flow == "call" and not self.callHours:
            raise ValueError(f"service {self.id!r}: a call flow needs callHours")
        if self.flow == "form":
            early = [f.id for f in self.fields if f.step is not None and f.step < 2]
            if early:
                raise ValueError(f"service {self.id!r}: questionnaire steps begin at 2: {early}")
            # The submission payload carries only mapped answers (spec section 3), so an
            # unmapped required question could never reach the server to be checked.
            unmapped = [f.id for f in self.fields if f.required and f.mapping is None]
            if unmapped:
                raise ValueError(f"service {self.id!r}: required questions need a mapping: {unmapped}")
        return self


class Category(CatalogModel):
    id: str = Slug
    name: str
    title: str
    description: str
    keywords: list[str] = []
    services: list[str] = Field(min_length=1, description="Service slugs in display order")


class MarketingPartners(CatalogModel):
    version: str = Field(min_length=1)
    note: str
    partners: list[str] = Field(min_length=1)


class SiteContent(CatalogModel):
    """Site-wide texts shared by server and browser."""

    defaultTcpaText: str = Field(min_length=1)
    baseFields: list[FieldDefinition]
    # The 50 states and the District of Columbia.
    states: list[dict[Literal["value", "label"], str]] = Field(min_length=51, max_length=51)

    @model_validator(mode="after")
    def _state_field_offers_every_state(self) -> SiteContent:
        codes = [state["value"] for state in self.states]
        for definition in self.baseFields:
            if definition.id == "state" and sorted(definition.options or []) != sorted(codes):
                raise ValueError("the state field's options must be the codes of `states`")
        return self


class Catalog(CatalogModel):
    site: SiteContent
    categories: list[Category]
    services: list[ServiceConfig]
    marketingPartners: MarketingPartners
