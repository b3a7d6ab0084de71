"""The buyer portal's and the buyers' API's routes, under /api/buyer and /api/buyer/v1."""

from __future__ import annotations

from fastapi import FastAPI

from servicematch.buyer import (
    router,
    router_funds,
    router_invoices,
    router_leads,
    router_returns,
    router_settings,
    router_standing,
)


def install_buyer_portal(app: FastAPI) -> None:
    for part in (router, router_leads, router_settings, router_returns, router_funds, router_invoices,
                 router_standing):
        app.include_router(part.router)
