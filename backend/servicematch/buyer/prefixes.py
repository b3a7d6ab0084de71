"""The two doors to a buyer's data: /api/buyer (the portal, a person's session) and /api/buyer/v1
(the buyer's systems, an API key). Most routes answer on both with one handler, so what a person
sees and what a key reads can never drift apart."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter

from servicematch.buyer.sessions import API_PREFIX, KEY_API_PREFIX
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES


class BothPrefixes:
    """A router for the portal's prefix, one for the API's, and `router` holding the two."""

    def __init__(self) -> None:
        self.portal = APIRouter(prefix=API_PREFIX, tags=["buyer portal"], responses=SIGNED_IN_ERROR_RESPONSES)
        self.api = APIRouter(prefix=KEY_API_PREFIX, tags=["buyer api"], responses=SIGNED_IN_ERROR_RESPONSES)

    def route(self, method: str, path: str, **route) -> Callable:
        """Register a handler under both prefixes, with the same answer and errors."""
        def register(handler: Callable) -> Callable:
            for part in (self.portal, self.api):
                part.add_api_route(path, handler, methods=[method], **route)
            return handler
        return register

    @property
    def router(self) -> APIRouter:
        """Both, for the app to include (call once every route is registered)."""
        both = APIRouter()
        both.include_router(self.portal)
        both.include_router(self.api)
        return both
