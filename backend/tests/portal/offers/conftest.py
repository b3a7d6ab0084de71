"""Offer fixtures (backend/tests/offer_fixtures.py), beside the portal's of the parent folder: a
real SMTP server for the notices, providers in review mode, direct providers, leads stored and
routed, and a worker that sends."""

from offer_fixtures import (  # noqa: F401 (fixtures: pytest finds them here)
    add_direct,
    make_lead,
    reviewer,
    session_factory,
    settings,
    smtp,
    worker,
)
