"""API shapes of the offline address look-up."""

from __future__ import annotations

from pydantic import BaseModel, Field


class AddressSuggestion(BaseModel):
    """One pick: the parts the lead form stores (spec section 3, address parse result).

    Only the place comes from the ZIP data; the street is the visitor's own text, checked against
    no list of streets, so the pick says which part is which (`typed`, `found`). An empty `zip`
    means the data cannot tell which of the place's ZIP codes the street is in.
    """

    label: str
    address1: str
    city: str
    state: str
    zip: str
    typed: str = Field(description="The street line as the visitor typed it, not looked up anywhere; empty when none")
    found: str = Field(description="The place the ZIP data knows: city, state and, when it has a single one, the ZIP")


class SuggestionList(BaseModel):
    suggestions: list[AddressSuggestion]


class ZipPublic(BaseModel):
    zip: str
    city: str
    state: str
    county: str
