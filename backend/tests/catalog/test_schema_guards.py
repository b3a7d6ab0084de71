"""The schema refuses the mistakes a catalogue editor is likely to make."""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from servicematch.catalog.schema import ServiceConfig


@pytest.fixture
def hvac(catalog_index) -> dict:
    return copy.deepcopy(catalog_index.find("hvac", "services").model_dump())


@pytest.mark.parametrize(
    "part", ["title", "description", "successMessage", "faqs", "fields", "hiddenParams", "cid"]
)
def test_a_service_missing_a_required_part_is_refused(hvac, part):
    del hvac[part]
    with pytest.raises(ValidationError):
        ServiceConfig.model_validate(hvac)


def test_fewer_than_four_faqs_is_refused(hvac):
    short = {**hvac, "faqs": hvac["faqs"][:3]}
    with pytest.raises(ValidationError):
        ServiceConfig.model_validate(short)


def test_a_service_carrying_testimonials_is_refused(hvac):
    # Quotes no consumer wrote are not published (docs/site-claims.md).
    quote = {"quote": "Great service.", "author": "Jennifer M.", "location": "Columbus, OH"}
    with pytest.raises(ValidationError, match="testimonials"):
        ServiceConfig.model_validate({**hvac, "testimonials": [quote] * 3})


def test_a_disqualifier_must_name_an_existing_option(hvac):
    field = next(f for f in hvac["fields"] if f["options"])
    field["disqualifiers"] = ["No such option"]
    with pytest.raises(ValidationError, match="not among its options"):
        ServiceConfig.model_validate(hvac)


@pytest.mark.parametrize("mapping", ["cq7", "cq11", "email", "DOB", ""])
def test_mapping_targets_are_limited(hvac, mapping):
    hvac["fields"][0]["mapping"] = mapping
    with pytest.raises(ValidationError):
        ServiceConfig.model_validate(hvac)


def test_two_fields_may_not_share_an_id(hvac):
    hvac["fields"].append({**hvac["fields"][0], "mapping": None})
    with pytest.raises(ValidationError, match="field ids repeat"):
        ServiceConfig.model_validate(hvac)


def test_unknown_keys_are_refused(hvac):
    hvac["fields"][0]["requried"] = True
    with pytest.raises(ValidationError):
        ServiceConfig.model_validate(hvac)


def test_questionnaire_steps_begin_at_two(hvac):
    hvac["fields"][0]["step"] = 1
    with pytest.raises(ValidationError, match="steps begin at 2"):
        ServiceConfig.model_validate(hvac)


def test_choice_fields_need_options(hvac):
    field = next(f for f in hvac["fields"] if f["options"])
    field["options"] = None
    field["disqualifiers"] = []
    with pytest.raises(ValidationError, match="needs options"):
        ServiceConfig.model_validate(hvac)
