"""The shapes of the catalogue API's answers, for the OpenAPI schema.

The browser's TypeScript types are generated from that schema (frontend/src/lib/api-schema.ts,
`make api-types`), so these models are what the frontend compiles against. The endpoints
build their answers from the catalogue models directly; these only describe them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from .schema import Category, FieldDefinition, MarketingPartners, ServiceConfig


class PublicConfig(BaseModel):
    """Settings the browser may know: public keys only (Settings.public_config)."""

    brandName: str
    siteOrigin: str
    recaptchaSiteKey: str
    googleMapsApiKey: str
    callTrackingScriptUrl: str
    pixelId: str
    trustedformEnabled: bool


class StateOption(BaseModel):
    value: str
    label: str


class SiteAnswer(BaseModel):
    defaultTcpaText: str
    baseFields: list[FieldDefinition]
    states: list[StateOption]


class ServiceSummary(BaseModel):
    id: str
    vertical: str
    name: str
    aliases: list[str]
    flow: Literal["form", "call"]
    title: str
    description: str
    disclaimer: str | None


class CatalogAnswer(BaseModel):
    """GET /api/catalog."""

    site: SiteAnswer
    config: PublicConfig
    categories: list[Category]
    services: list[ServiceSummary]
    marketingPartners: MarketingPartners


class PartnerListAnswer(BaseModel):
    """GET /api/marketing-partners: the list the consent text's link shows now."""

    version: str
    note: str
    partners: list[str]


class ServiceDetail(ServiceConfig):
    """GET /api/services/...: the service's configuration with its consent text filled in."""

    tcpaText: str  # type: ignore[assignment]  # always filled in the answer
