"""Read-only catalogue API: the browser's only source for categories, services and questionnaires."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from servicematch.catalog.loader import CatalogDep
from servicematch.deps import SessionFactoryDep, SettingsDep
from servicematch.errors import NotFound
from servicematch.settings import Settings

from .answers import CatalogAnswer, PartnerListAnswer, ServiceDetail
from .loader import CatalogIndex
from .partners import current_partner_list
from .schema import ServiceConfig

router = APIRouter(prefix="/api", tags=["catalog"])
# The catalogue changes only with a deploy; let browsers and CDNs reuse it for a few minutes.
CACHE_CONTROL = "public, max-age=300"
# The partner list changes with the companies: a few seconds of reuse at most (docs/partners.md).
PARTNERS_CACHE_CONTROL = "public, max-age=5"


def service_summary(service: ServiceConfig) -> dict[str, Any]:
    return {
        "id": service.id,
        "vertical": service.vertical,
        "name": service.name,
        "aliases": service.aliases,
        "flow": service.flow,
        "title": service.title,
        "description": service.description,
        "disclaimer": service.disclaimer,
    }


def service_detail(index: CatalogIndex, service: ServiceConfig, brand_name: str) -> dict[str, Any]:
    detail = service.model_dump(mode="json")
    detail["tcpaText"] = index.tcpa_text(service, brand_name)
    return detail


@router.get("/catalog", summary="Categories, service summaries and site-wide content",
            responses={200: {"model": CatalogAnswer}})
def read_catalog(index: CatalogDep, settings: SettingsDep, response: Response) -> dict[str, Any]:
    response.headers["Cache-Control"] = CACHE_CONTROL
    catalog = index.catalog
    return {
        "site": {
            **catalog.site.model_dump(mode="json"),
            "defaultTcpaText": catalog.site.defaultTcpaText.replace("{sender name}", settings.brand_name),
        },
        "config": settings.public_config(),
        "categories": [c.model_dump(mode="json") for c in catalog.categories],
        "services": [service_summary(s) for s in catalog.services],
        "marketingPartners": catalog.marketingPartners.model_dump(mode="json"),
    }


@router.get("/marketing-partners", summary="The marketing-partners list the consent text's link shows now",
            responses={200: {"model": PartnerListAnswer}})
def read_marketing_partners(index: CatalogDep, sessions: SessionFactoryDep, response: Response) -> dict[str, Any]:
    response.headers["Cache-Control"] = PARTNERS_CACHE_CONTROL
    current = current_partner_list(sessions, index.catalog.marketingPartners)
    return {"version": current.version, "note": current.note, "partners": list(current.partners)}


@router.get("/services/{slug}", summary="One service's full configuration, by slug or alias",
            responses={200: {"model": ServiceDetail}})
def read_service(slug: str, index: CatalogDep, settings: SettingsDep, response: Response) -> dict[str, Any]:
    return _detail_or_404(index, settings, response, index.find(slug))


@router.get("/services/{vertical}/{slug}", summary="One service's full configuration within a vertical",
            responses={200: {"model": ServiceDetail}})
def read_service_in_vertical(
    vertical: str, slug: str, index: CatalogDep, settings: SettingsDep, response: Response
) -> dict[str, Any]:
    return _detail_or_404(index, settings, response, index.find(slug, vertical))


def _detail_or_404(index: CatalogIndex, settings: Settings, response: Response,
                   service: ServiceConfig | None) -> dict[str, Any]:
    if service is None:
        raise NotFound("Service Not Found")
    response.headers["Cache-Control"] = CACHE_CONTROL
    return service_detail(index, service, settings.brand_name)
