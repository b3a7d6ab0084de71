"""Re-check a submission against the catalogue: every rule the browser applies, and more."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from servicematch.address.directory import load_directory
from servicematch.address.parsing import parse_query
from servicematch.catalog.loader import CatalogIndex
from servicematch.catalog.schema import FieldDefinition, ServiceConfig
from servicematch.errors import ServiceMatchError
from servicematch.inbound import validation as rules

from .schemas import CallFlowSubmission, LeadFormSubmission

FIX_FIELDS = "Please correct the highlighted fields."
NOT_A_QUESTION = "This is not a question of this service"
NOT_AN_OPTION = "Please choose one of the listed options"
INCOMPLETE_ADDRESS = "Please enter a full street address with city and state"
CONTACT_KEYS = ("first", "last", "email", "phone", "address1", "address2", "city", "state", "zip")
# Workers' compensation buyers (cid 847) take cq20, the year employment began, derived from cq1.
START_YEAR_CID = 847
_YEARS_AGO = re.compile(r"^([1-5]) Years?$")


@dataclass
class CheckedLead:
    """A submission that passed every check, split into what is personal and what is not."""

    service: ServiceConfig
    flow: str
    contact: dict[str, str] = field(default_factory=dict)
    # Answers that identify nobody (choices), keyed by mapping (or field id when unmapped).
    answers: dict[str, str] = field(default_factory=dict)
    # Date of birth and free text: stored encrypted with the contact details.
    private_answers: dict[str, str] = field(default_factory=dict)


def start_year(cq1: str, *, today: date) -> str:
    """cq20 for cid 847: the current year minus cq1's years (0 to 5), or empty for any other answer."""
    if cq1 == "Less than 1 Year":
        return str(today.year)
    match = _YEARS_AGO.fullmatch(cq1)
    return str(today.year - int(match.group(1))) if match else ""


def zip_outside_state(zip_code: str, state: str, *, state_names: dict[str, str]) -> str | None:
    """Where a ZIP is, when that is not the state given ("90210 is in California, not Texas").

    A ZIP the bundled directory does not know is left to the buyer: the data may be older than it."""
    entry = load_directory().get(zip_code)
    if entry is None or not state or entry.state == state:
        return None
    return f"{zip_code} is in {state_names.get(entry.state, entry.state)}, not {state_names.get(state, state)}"


def _is_birth_date(definition: FieldDefinition) -> bool:
    return definition.mapping == "dob" or definition.autoComplete == "bday"


def _is_private(definition: FieldDefinition) -> bool:
    return definition.type == "textarea" or _is_birth_date(definition)


def check_value(definition: FieldDefinition, raw: str, *, today: date) -> tuple[str, str | None]:
    """(the cleaned value, None) or (the trimmed value, the error) for one field's answer."""
    value = raw.strip()
    if not value:
        return value, rules.REQUIRED if definition.required else None
    if definition.type == "email":
        return value, rules.check_email(value)
    if definition.type == "tel":
        digits, error = rules.phone_digits(value)
        return digits or value, error
    if definition.type in ("select", "radio"):
        return value, None if value in (definition.options or []) else NOT_AN_OPTION
    if definition.type == "date":
        return value, None if rules.parse_date(value, today=today) else rules.INVALID_DATE
    if definition.type == "address":
        parsed = parse_query(value)
        return value, None if parsed.street and parsed.city and parsed.state else INCOMPLETE_ADDRESS
    if definition.id == "zip" or definition.autoComplete == "postal-code":
        return value, rules.check_zip(value)
    # After the type rules, whose own messages say more than a length would.
    if definition.maxLength and len(value) > definition.maxLength:
        return value, f"Please use at most {definition.maxLength} characters"
    if definition.pattern and definition.type != "hidden" and not re.fullmatch(definition.pattern, value):
        return value, f"Please check the {definition.label.lower()}"
    return value, None


def _refuse_if_disqualified(answers: list[tuple[FieldDefinition, str]]) -> None:
    for definition, value in answers:
        if value and value in definition.disqualifiers:
            message = rules.disqualified_message(value)
            raise ServiceMatchError(message, fields={definition.id: message}, status_code=422)


def _refuse_if_age_out_of_bounds(answers: list[tuple[FieldDefinition, str]], *, today: date) -> None:
    for definition, value in answers:
        if definition.type != "date" or not value:
            continue
        bounds = definition.dateValidation
        if not bounds and not _is_birth_date(definition):
            continue
        age = rules.age_on(date.fromisoformat(value), today=today)
        if bounds and not bounds.minAge <= age <= bounds.maxAge:
            message = rules.age_message(age=age, min_age=bounds.minAge, max_age=bounds.maxAge)
        elif age < rules.ADULT_AGE:
            # The site is not for under-18s (spec section 9), whatever a field's own bounds say.
            message = rules.UNDER_ADULT_AGE
        else:
            continue
        raise ServiceMatchError(message, fields={definition.id: message}, status_code=422)


def _finish(checked: CheckedLead, answered: list[tuple[FieldDefinition, str]],
            errors: dict[str, str], *, today: date) -> CheckedLead:
    if errors:
        raise ServiceMatchError(FIX_FIELDS, fields=errors, status_code=422)
    _refuse_if_disqualified(answered)
    _refuse_if_age_out_of_bounds(answered, today=today)
    if checked.service.cid == START_YEAR_CID:
        checked.answers["cq20"] = start_year(checked.answers.get("cq1", ""), today=today)
    return checked


def _store_answer(checked: CheckedLead, definition: FieldDefinition, key: str, value: str) -> None:
    if not value:
        return
    target = checked.private_answers if _is_private(definition) else checked.answers
    target[key] = value


def check_lead_form(*, index: CatalogIndex, service: ServiceConfig, submission: LeadFormSubmission,
                    today: date) -> CheckedLead:
    """Check a lead-form payload against its service's base fields and questionnaire."""
    errors: dict[str, str] = {}
    if submission.cid != service.cid:
        errors["cid"] = f"This service's campaign id is {service.cid}"
    consumer = submission.consumer.model_dump(exclude_none=True)
    checked = CheckedLead(service=service, flow="form", contact={key: "" for key in CONTACT_KEYS})
    checked.contact["address2"] = consumer["address2"].strip()
    base = list(index.catalog.site.baseFields) if service.includeBaseFields else []
    base_ids = {definition.id for definition in base}
    answered: list[tuple[FieldDefinition, str]] = []
    for definition in base:
        value, error = check_value(definition, consumer.get(definition.id, ""), today=today)
        if error:
            errors[definition.id] = error
        checked.contact[definition.id] = value
        answered.append((definition, value))
    mappings = {}
    for definition in service.fields:
        if definition.id in base_ids or definition.mapping is None:
            continue
        mappings[definition.mapping] = definition
        value, error = check_value(definition, consumer.get(definition.mapping, ""), today=today)
        if error:
            errors[definition.id] = error
        _store_answer(checked, definition, definition.mapping, value)
        answered.append((definition, value))
    state_names = index.state_names
    if "state" in checked.contact and checked.contact["state"] not in state_names:
        errors.setdefault("state", NOT_AN_OPTION)
    if not {"zip", "state"} & set(errors):
        elsewhere = zip_outside_state(checked.contact["zip"], checked.contact["state"], state_names=state_names)
        if elsewhere:
            errors["zip"] = elsewhere
    derived = {"cq20"} if service.cid == START_YEAR_CID else set()
    answer_keys = {key for key in consumer if key.startswith("cq") or key == "dob"}
    for key in sorted(answer_keys - set(mappings) - derived):
        errors[key] = NOT_A_QUESTION
    for key, value in submission.customquestions.model_dump(exclude_none=True).items():
        if key in derived:
            continue
        if key not in mappings:
            errors[f"customquestions.{key}"] = NOT_A_QUESTION
        elif value.strip() != consumer.get(key, "").strip():
            errors[f"customquestions.{key}"] = "Must repeat the consumer's answer"
    return _finish(checked, answered, errors, today=today)


def _contact_key(definition: FieldDefinition) -> str | None:
    """Which contact detail a call-flow field holds, read from its type and autocomplete hint."""
    if definition.type in ("email", "tel"):
        return {"email": "email", "tel": "phone"}[definition.type]
    return {"given-name": "first", "family-name": "last"}.get(definition.autoComplete or "")


def check_call_flow(*, index: CatalogIndex, service: ServiceConfig, submission: CallFlowSubmission,
                    today: date) -> CheckedLead:
    """Check call-flow answers (field id -> string) against the service's fields."""
    state_names = index.state_names
    checked = CheckedLead(service=service, flow="call", contact={key: "" for key in CONTACT_KEYS})
    known = {definition.id for definition in service.fields}
    errors = {key: NOT_A_QUESTION for key in sorted(set(submission.answers) - known)}
    answered: list[tuple[FieldDefinition, str]] = []
    for definition in service.fields:
        value, error = check_value(definition, submission.answers.get(definition.id, ""), today=today)
        if error:
            errors[definition.id] = error
        answered.append((definition, value))
        contact_key = _contact_key(definition)
        if contact_key and not checked.contact[contact_key]:
            checked.contact[contact_key] = value
        elif definition.type == "address" and value:
            parsed = parse_query(value)
            checked.contact.update(address1=parsed.street, city=parsed.city, state=parsed.state or "",
                                   zip=parsed.zip or "")
            elsewhere = zip_outside_state(parsed.zip or "", parsed.state or "", state_names=state_names)
            if elsewhere and not error:
                errors[definition.id] = elsewhere
        else:
            _store_answer(checked, definition, definition.mapping or definition.id, value)
    return _finish(checked, answered, errors, today=today)
