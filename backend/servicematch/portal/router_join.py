"""Joining, for anyone: the services a provider may offer, the application form, the e-mail confirmation."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from servicematch.catalog.loader import CatalogDep
from servicematch.deps import SessionDep, SessionFactoryDep, SettingsDep
from servicematch.errors import RATE_LIMITED_RESPONSES, ErrorBody
from servicematch.inbound.ratelimit import counted_always
from servicematch.intake.schemas import text
from servicematch.kernel.numbers import Number
from servicematch.portal import applications, rules
from servicematch.portal.licences import licence_for

router = APIRouter(prefix="/api/partner", tags=["partner"], responses=RATE_LIMITED_RESPONSES)
_apply_limit = Depends(counted_always("partner_apply_limiter"))
_link_limit = Depends(counted_always("portal_link_limiter"))


class PartnerService(BaseModel):
    id: str = Field(description="Catalogue id, vertical/slug")
    name: str
    vertical: str
    verticalName: str
    licence: str | None = Field(description="The licence offering it needs, if any")


class PartnerState(BaseModel):
    value: str
    label: str


class PartnerOptions(BaseModel):
    services: list[PartnerService]
    states: list[PartnerState]


class PartnerApplication(BaseModel):
    """The form at /partner-with-us. The area is ZIP codes (and a radius around them) or states."""

    model_config = ConfigDict(extra="forbid")

    businessName: text(200) = ""
    contactName: text(200) = ""
    email: text(254) = ""
    phone: text(32) = ""
    services: list[text(80)] = Field(default_factory=list, max_length=rules.MAX_SERVICES * 2)
    zips: list[text(10)] = Field(default_factory=list, max_length=rules.MAX_ZIPS * 2)
    radiusMiles: Number | None = None
    states: list[text(4)] = Field(default_factory=list, max_length=60)
    licenceNumber: text(60) | None = None
    licenceState: text(4) | None = None


class PartnerMessage(BaseModel):
    message: str


class OneTimeLink(BaseModel):
    token: text(200, min_length=1)


@router.get("/services", response_model=PartnerOptions,
            summary="The services a provider may offer (and the licence each needs), and the states")
async def partner_options(catalog: CatalogDep) -> PartnerOptions:
    names = {category.id: category.name for category in catalog.catalog.categories}
    services = [PartnerService(id=f"{category.id}/{slug}", name=service.name, vertical=category.id,
                               verticalName=names[category.id], licence=licence_for(f"{category.id}/{slug}"))
                for category in catalog.catalog.categories for slug in category.services
                if (service := catalog.find(slug, category.id)) is not None]
    return PartnerOptions(services=services, states=[PartnerState(**state) for state in catalog.catalog.site.states])


@router.post("/applications", status_code=202, response_model=PartnerMessage, dependencies=[_apply_limit],
             summary="Apply to join: the applicant is e-mailed a link to confirm the address")
async def apply(body: PartnerApplication, settings: SettingsDep, catalog: CatalogDep, factory: SessionFactoryDep) -> PartnerMessage:
    answers = applications.Answers(
        business_name=body.businessName, contact_name=body.contactName, email=body.email, phone=body.phone,
        services=body.services, zips=body.zips, radius_miles=body.radiusMiles, states=body.states,
        licence_number=body.licenceNumber, licence_state=body.licenceState)
    message = await run_in_threadpool(applications.submit, session_factory=factory, settings=settings,
                                      catalog=catalog, answers=answers)
    return PartnerMessage(message=message)


@router.post("/applications/confirm", response_model=PartnerMessage, dependencies=[_link_limit],
             responses={410: {"model": ErrorBody, "description": "The link expired or was used already"}},
             summary="Confirm an application's e-mail address with the link's token")
def confirm(body: OneTimeLink, db: SessionDep) -> PartnerMessage:
    message = applications.confirm(db, body.token)
    db.commit()
    return PartnerMessage(message=message)
