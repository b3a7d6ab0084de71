"""API shapes of the offline address look-up."""

from __future__ import annotations

from pydantic import BaseModel


class AddressSuggestion(BaseModel):
    """One pick: the parts the lead form stores (spec section 3, address parse result)."""

    label: str
    address1: str
    city: str
    state: str
    zip: str


class SuggestionList(BaseModel):
    suggestions: list[AddressSuggestion]


class ZipPublic(BaseModel):
    zip: str
    city: str
    state: str
    county: str
