"""Request and response bodies of the intake API (docs/lead-payload.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, WithJsonSchema
from pydantic_core import PydanticCustomError

from servicematch.inbound.validation import (
    CONTROL_CHARACTERS_REFUSED,
    has_control_characters,
    strip_control_characters,
)
from servicematch.kernel.numbers import WholeNumber


def _single_line(value: str) -> str:
    if has_control_characters(value):
        raise PydanticCustomError("control_characters", CONTROL_CHARACTERS_REFUSED)
    return value


def _multi_line(value: str) -> str:
    if has_control_characters(value, allow_line_breaks=True):
        raise PydanticCustomError("control_characters", CONTROL_CHARACTERS_REFUSED)
    return value


# The same rules as patterns in the OpenAPI schema, so clients (and fuzzers) know them up front.
SINGLE_LINE_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029]*$"
MULTI_LINE_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]*$"


def _documented(max_length: int, pattern: str, min_length: int = 0) -> WithJsonSchema:
    return WithJsonSchema({"type": "string", "maxLength": max_length, "pattern": pattern}
                          | ({"minLength": min_length} if min_length else {}))


def text(max_length: int, min_length: int = 0) -> Any:
    """A typed value on one line: control characters are refused with a 422."""
    return Annotated[str, StringConstraints(min_length=min_length, max_length=max_length),
                     AfterValidator(_single_line), _documented(max_length, SINGLE_LINE_PATTERN, min_length)]


def metadata(max_length: int) -> Any:
    """What the browser reports about the visit (page URL, user agent, click ids): the consumer
    did not type it, so control characters are removed rather than refused."""
    return Annotated[str, StringConstraints(max_length=max_length), AfterValidator(strip_control_characters)]


# Prefill parameters a landing link may carry (frontend/src/lib/url-params.ts takes them out of
# the address bar too): a page URL is stored unencrypted and forwarded, so they never stay in one.
PERSONAL_URL_PARAMETERS = frozenset({
    "first", "last", "email", "phone", "address1", "address2", "city", "state", "zip",
    "name", "firstname", "first_name", "lastname", "last_name", "fullname", "full_name",
    "email_address", "phone_number", "tel", "mobile", "address", "street", "zipcode", "zip_code",
    "postal_code", "dob", "date_of_birth", "birthdate",
})


def without_personal_parameters(url: str) -> str:
    """The page URL without personal query parameters or fragment; "" when it cannot be read."""
    try:
        parts = urlsplit(url)
        kept = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                if k.strip().lower() not in PERSONAL_URL_PARAMETERS]
    except ValueError:
        return ""
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(kept), ""))


# Generous caps: real answers are short, and anything bigger is a mistake or an attack.
ShortText = text(200)
# A textarea's answer may span lines; other control characters are still refused.
LongText = Annotated[str, StringConstraints(max_length=2000), AfterValidator(_multi_line),
                     _documented(2000, MULTI_LINE_PATTERN)]
# The same, where words are required (a blank answer is refused by the handler in plain words).
RequiredLongText = Annotated[str, StringConstraints(max_length=2000), AfterValidator(_multi_line),
                             _documented(2000, MULTI_LINE_PATTERN, min_length=1)]
RequestId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{8,64}$")]


class Strict(BaseModel):
    # Unknown keys are refused: a misspelt field must fail loudly, not vanish.
    model_config = ConfigDict(extra="forbid")


class ValidateRequest(Strict):
    type: Literal["email", "phone"] = Field(description="Which rule to apply")
    value: text(320)


class ValidateResponse(BaseModel):
    isValid: bool
    error: str | None


class Click(Strict):
    """Where the visit came from; `ip` is ignored, the server records the address it sees."""

    domain_url: Annotated[metadata(2000), AfterValidator(without_personal_parameters)] = ""
    externalid: metadata(200) = ""
    subid1: metadata(200) = ""
    subid2: metadata(200) = ""
    fbclid: metadata(500) = ""
    fbp: metadata(200) = ""
    useragent: metadata(1000) = ""
    ip: metadata(200) = ""
    trustedform: metadata(2000) = ""


class Consumer(Strict):
    """Base fields, the service's hiddenParams, and the questionnaire answers by mapping."""

    first: ShortText = ""
    last: ShortText = ""
    email: text(320) = ""
    phone: ShortText = ""
    address1: ShortText = ""
    address2: ShortText = ""
    city: ShortText = ""
    state: ShortText = ""
    zip: ShortText = ""
    vertical: ShortText
    category: ShortText
    source: Literal["website"] = "website"
    cq1: ShortText | None = None
    cq2: ShortText | None = None
    cq3: ShortText | None = None
    cq4: ShortText | None = None
    cq5: ShortText | None = None
    cq6: ShortText | None = None
    cq10: LongText | None = None
    cq20: ShortText | None = None
    dob: ShortText | None = None


class CustomQuestions(Strict):
    cq1: ShortText | None = None
    cq2: ShortText | None = None
    cq3: ShortText | None = None
    cq4: ShortText | None = None
    cq5: ShortText | None = None
    cq6: ShortText | None = None
    cq10: LongText | None = None
    cq20: ShortText | None = None


class FormSignals(Strict):
    """What the form reports about how it was filled, for the quality gate (docs/quality.md). The
    visitor never sees it; the gate weighs it against what the server saw itself."""

    secondsOnForm: float | None = Field(default=None, ge=0, le=86_400, allow_inf_nan=False,
                                        description="Seconds from the form's first step to submitting it")
    tabId: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{8,64}$",
                              description="The tab id the page's funnel events (POST /api/events) carry")
    honeypot: metadata(2000) = Field(default="", description="The hidden field people never see: empty from a person")


class LeadFormSubmission(Strict):
    """The spec's submission payload (section 3), exactly."""

    pid: Literal[16]
    sid: Literal[143]
    cid: WholeNumber
    istest: Literal["N", "Y"] = "N"
    requestId: RequestId
    consumer: Consumer
    customquestions: CustomQuestions = Field(default_factory=CustomQuestions)
    click: Click = Field(default_factory=Click)
    recaptchaToken: text(4000) | None = None
    # Optional, so clients built before it still work; left out of the request's fingerprint.
    formSignals: FormSignals | None = None


class CallFlowSubmission(Strict):
    """The call flow's answers: the service, each field id's entered string, and the click."""

    requestId: RequestId
    vertical: ShortText
    service: ShortText
    # No call-flow question is a textarea: every answer is one line.
    answers: Annotated[dict[text(64), text(2000)], Field(max_length=50), WithJsonSchema({
        "type": "object", "maxProperties": 50,
        "propertyNames": {"maxLength": 64, "pattern": SINGLE_LINE_PATTERN},
        "additionalProperties": {"type": "string", "maxLength": 2000, "pattern": SINGLE_LINE_PATTERN},
    })]
    click: Click = Field(default_factory=Click)
    recaptchaToken: text(4000) | None = None
    formSignals: FormSignals | None = None


class LeadAccepted(BaseModel):
    leadId: str
    requestId: str
    # What the consumer is shown and quotes: "7K3M-Q9TX" (servicematch.kernel.references).
    reference: str
    # Sent back in the X-Status-Token header of GET /api/leads/{requestId}/status, which answers
    # who received the lead once routing has decided.
    statusToken: str
    # Kept for clients built against it: always empty, since who gets a lead is decided after
    # this answer (routing, in the worker); the status read and the consent receipt name them.
    providers: list[str]
