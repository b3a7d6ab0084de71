"""The real catalogue holds every service of the spec, with the spec's rules exactly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

EXPECTED = {
    "services": ["hvac", "bathroom-remodeling", "flooring", "gutters", "home-security", "roofing"],
    "legal": ["auto-accident", "bankruptcy", "criminal-defense", "debt-relief", "personal-injury",
              "workers-comp"],
    "insurance": ["auto", "final-expense", "final-expense-ib", "homeowners", "renters", "health", "ssdi"],
    "financial": ["debt-relief", "mortgage", "car-loan", "refinancing"],
}
ALL = [(vertical, slug) for vertical, slugs in EXPECTED.items() for slug in slugs]


def field(service, field_id):
    return next(f for f in service.fields if f.id == field_id)


def disqualifying(service) -> dict[str, list[str]]:
    return {f.id: f.disqualifiers for f in service.fields if f.disqualifiers}


def test_categories_in_order_with_their_services(catalog_index):
    categories = catalog_index.catalog.categories
    assert [c.id for c in categories] == list(EXPECTED)
    for category in categories:
        assert sorted(category.services) == sorted(EXPECTED[category.id])


@pytest.mark.parametrize(("vertical", "slug"), ALL)
def test_every_service_has_its_content(catalog_index, vertical, slug):
    service = catalog_index.find(slug, vertical)
    assert service is not None
    assert service.cid == (847 if slug == "workers-comp" else 640)
    assert len(service.faqs) >= 4
    assert service.successMessage.strip()
    assert service.hiddenParams.source == "website"
    questions = [f for f in service.fields if f.type != "hidden"]
    if service.flow == "form":
        assert len([f for f in questions if (f.step or 99) >= 2]) >= 2
    consent = catalog_index.tcpa_text(service, "ServiceMatch")
    assert "ServiceMatch" in consent and "{sender name}" not in consent
    assert "not a condition of purchase" in consent
    if vertical == "legal":
        assert "law firm" in service.disclaimer and "referral" in service.disclaimer


def test_debt_relief_resolves_per_vertical(catalog_index):
    assert catalog_index.find("debt-relief", "legal").name == "Collections and Debt"
    assert catalog_index.find("debt-relief", "financial").name == "Credit Card Debt"


def test_home_loan_is_an_alias_of_mortgage(catalog_index):
    assert catalog_index.find("home-loan", "financial").id == "mortgage"
    assert catalog_index.find("home-loan").id == "mortgage"


def test_unknown_service_is_not_found(catalog_index):
    assert catalog_index.find("unicorn-grooming") is None
    assert catalog_index.find("hvac", "legal") is None


def test_auto_accident_disqualifiers(catalog_index):
    service = catalog_index.find("auto-accident", "legal")
    rules = disqualifying(service)
    assert sorted(answer for options in rules.values() for answer in options) == ["Yes", "Yes", "Yes"]
    fault = next(f for f in service.fields if f.disqualifiers and any(o.startswith("Yes, I was cited") for o in f.options))
    assert fault.disqualifiers == ["Yes"]
    assert any(f.id == "incident_date" and f.type == "date" for f in service.fields)


@pytest.mark.parametrize(
    ("vertical", "slug", "option"),
    [("legal", "bankruptcy", "Under $10,000"), ("legal", "personal-injury", "Over 6 months ago"),
     ("insurance", "final-expense-ib", "Under 50")],
)
def test_single_disqualifiers(catalog_index, vertical, slug, option):
    service = catalog_index.find(slug, vertical)
    assert any(option in options for options in disqualifying(service).values())


def test_workers_comp_rules(catalog_index):
    service = catalog_index.find("workers-comp", "legal")
    disqualifiers = [answer for options in disqualifying(service).values() for answer in options]
    assert {"More than 3 Years", "Yes", "No"} <= set(disqualifiers)
    years = next(f for f in service.fields if f.mapping == "cq1")
    assert years.options[0] == "Less than 1 Year"
    assert years.options[-1] == "More than 5 Years"
    assert "24 hours" in service.successMessage


def test_ssdi_asks_date_of_birth_as_dob(catalog_index):
    dob = field(catalog_index.find("ssdi", "insurance"), "date_of_birth")
    assert (dob.type, dob.mapping, dob.required) == ("date", "dob", True)


def test_final_expense_ib_is_a_call_flow(catalog_index):
    service = catalog_index.find("final-expense-ib", "insurance")
    assert service.flow == "call" and not service.includeBaseFields
    assert service.ringbaPhoneNumber and service.ringbaJSid and service.phoneCallToAction
    ordered = sorted(service.fields, key=lambda f: f.step or 1)
    assert ordered[0].required is False
    assert all(f.required for f in ordered[1:])
    dob = next(f for f in service.fields if f.dateValidation)
    assert (dob.dateValidation.minAge, dob.dateValidation.maxAge) == (50, 75)


def test_marketing_partners_are_listed(catalog_index):
    partners = catalog_index.catalog.marketingPartners
    assert len(partners.partners) >= 20
    assert partners.note == (
        "This list may be updated from time to time. All partners are required to comply with "
        "applicable privacy laws and regulations."
    )


def test_base_fields_follow_the_spec(catalog_index):
    base = {f.id: f for f in catalog_index.catalog.site.baseFields}
    assert list(base) == ["first", "last", "email", "address1", "city", "state", "zip", "phone"]
    assert {f.step for i, f in base.items() if i != "phone"} == {98}
    assert base["phone"].step == 99 and base["phone"].label == "Phone number"
    assert len(base["state"].options) == 51 and "DC" in base["state"].options


# The thank-you page (frontend/src/pages/thank-you.tsx) shows its own steps beside the service's
# success message (when companies received the request): it names no time, so only the service's
# own words do.
THANK_YOU_PAGE = Path(__file__).resolve().parents[3] / "frontend" / "src" / "pages" / "thank-you.tsx"
_WITHIN = re.compile(r"within (?:\w+ )?(?:business )?(?:hours?|days?)", re.IGNORECASE)


def test_each_service_promises_one_contact_time_and_the_thank_you_page_none_of_its_own(catalog_index):
    page = THANK_YOU_PAGE.read_text(encoding="utf-8")
    assert "Expect a call or text" in page and "at the number you gave us." in page
    assert not _WITHIN.search(page)
    for service in catalog_index.catalog.services:
        texts = [service.successMessage, *(faq.answer for faq in service.faqs)]
        promises = {match.group(0) for text in texts for match in _WITHIN.finditer(" ".join(text.split()))}
        assert len(promises) <= 1, (service.id, promises)
