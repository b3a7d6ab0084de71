"""Request and response bodies of the intake API (docs/lead-payload.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

# Generous caps: real answers are short, and anything bigger is a mistake or an attack.
ShortText = Annotated[str, StringConstraints(max_length=200)]
LongText = Annotated[str, StringConstraints(max_length=2000)]
UrlText = Annotated[str, StringConstraints(max_length=2000)]
RequestId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{8,64}$")]


class Strict(BaseModel):
    # Unknown keys are refused: a misspelt field must fail loudly, not vanish.
    model_config = ConfigDict(extra="forbid")


class ValidateRequest(Strict):
    type: Literal["email", "phone"] = Field(description="Which rule to apply")
    value: Annotated[str, StringConstraints(max_length=320)]


class ValidateResponse(BaseModel):
    isValid: bool
    error: str | None


class Click(Strict):
    """Where the visit came from; `ip` is ignored, the server records the address it sees."""

    domain_url: UrlText = ""
    externalid: ShortText = ""
    subid1: ShortText = ""
    subid2: ShortText = ""
    fbclid: Annotated[str, StringConstraints(max_length=500)] = ""
    fbp: ShortText = ""
    useragent: Annotated[str, StringConstraints(max_length=1000)] = ""
    ip: ShortText = ""
    trustedform: UrlText = ""


class Consumer(Strict):
    """Base fields, the service's hiddenParams, and the questionnaire answers by mapping."""

    first: ShortText = ""
    last: ShortText = ""
    email: Annotated[str, StringConstraints(max_length=320)] = ""
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


class LeadFormSubmission(Strict):
    """The spec's submission payload (section 3), exactly."""

    pid: Literal[16]
    sid: Literal[143]
    cid: int
    istest: Literal["N", "Y"] = "N"
    requestId: RequestId
    consumer: Consumer
    customquestions: CustomQuestions = Field(default_factory=CustomQuestions)
    click: Click = Field(default_factory=Click)
    recaptchaToken: Annotated[str, StringConstraints(max_length=4000)] | None = None


class CallFlowSubmission(Strict):
    """The call flow's answers: the service, each field id's entered string, and the click."""

    requestId: RequestId
    vertical: ShortText
    service: ShortText
    answers: Annotated[dict[Annotated[str, StringConstraints(max_length=64)], LongText],
                       Field(max_length=50)]
    click: Click = Field(default_factory=Click)
    recaptchaToken: Annotated[str, StringConstraints(max_length=4000)] | None = None


class LeadAccepted(BaseModel):
    leadId: str
    requestId: str
