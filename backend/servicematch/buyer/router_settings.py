"""A buyer's settings and its audit log, under /api/buyer (the portal: a person's session) and
/api/buyer/v1 (the buyer's systems: an API key), the same handlers on both; rotating the signing
secret is for a person, in the portal, only (docs/buyer-portal.md).

Everything here is the caller's own buyer (`caller.buyer`): there is no buyer id to get wrong. A
change needs the session's CSRF token, or a key; each is on the audit log with who made it.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Response
from fastapi.responses import JSONResponse

from servicematch.buyer import audit, settings, urls
from servicematch.buyer.auth import SignedInBuyer, SignedInPerson
from servicematch.buyer.prefixes import BothPrefixes
from servicematch.catalog.loader import CatalogDep
from servicematch.deps import SessionDep, SettingsDep
from servicematch.errors import ErrorBody, ServiceMatchError
from servicematch.kernel.clock import utcnow

CHANGE_REFUSED = {403: {"model": ErrorBody, "description": "A setting ServiceMatch locked for this buyer (named in "
                                                           "fields), or a change without the CSRF token"},
                  422: {"model": ErrorBody, "description": "A value that is not valid, named in fields"}}
Limit = Annotated[int, Query(ge=1, le=200, description="Entries a page")]
Cursor = Annotated[str | None, Query(max_length=18, pattern=r"^[0-9]*$", description="The last page's nextCursor")]

both = BothPrefixes()
portal, on_both = both.portal, both.route



@on_both("GET", "/settings", response_model=settings.BuyerSettings,
         summary="The buyer's settings: what it buys, where, when, how many, at what price, which leads (its "
                 "minimum quality score, its duplicate rule); what is locked")
def read_settings(caller: SignedInBuyer) -> settings.BuyerSettings:
    return settings.settings_of(caller.buyer, utcnow())


@on_both("PATCH", "/settings", response_model=settings.BuyerSettings, responses=CHANGE_REFUSED,
         summary="Change settings; send only the fields to change (all are checked before any is saved)")
def change_settings(changes: settings.SettingsChanges, caller: SignedInBuyer, db: SessionDep, config: SettingsDep,
                    catalog: CatalogDep) -> settings.BuyerSettings:
    changed = settings.change_settings(db, caller, catalog, changes, allow_private=config.private_webhooks_allowed,
                                       max_bid_cents=config.max_bid_cents, now=utcnow())
    db.commit()
    return changed


@on_both("POST", "/settings/pause", response_model=settings.BuyerSettings,
         summary="Pause: no pings or posts from the next auction on, until resumed")
def pause(caller: SignedInBuyer, db: SessionDep) -> settings.BuyerSettings:
    paused = settings.set_paused(db, caller, True, utcnow())
    db.commit()
    return paused


@on_both("POST", "/settings/resume", response_model=settings.BuyerSettings,
         summary="Resume after pausing: pinged and posted to again")
def resume(caller: SignedInBuyer, db: SessionDep) -> settings.BuyerSettings:
    resumed = settings.set_paused(db, caller, False, utcnow())
    db.commit()
    return resumed


@on_both("POST", "/settings/urls", response_model=urls.UrlChangeResult,
         responses={**CHANGE_REFUSED, 422: {"model": urls.UrlChangeRefused,
                                            "description": "A URL not valid, or a test that failed: nothing saved"}},
         summary="Change the ping or post URL: saved only once a test ping or post to each new URL succeeds")
def change_urls(changes: urls.UrlChanges, caller: SignedInBuyer, db: SessionDep,
                config: SettingsDep) -> urls.UrlChangeResult | JSONResponse:
    try:
        wanted = urls.wanted_urls(caller.buyer, changes, allow_private=config.private_webhooks_allowed)
    except ServiceMatchError as exc:
        if exc.status_code != 422:
            raise
        # The same shape as a failed test's, with no test run.
        refused = urls.UrlChangeRefused(error=exc.error, fields=exc.fields, tests=[])
        return JSONResponse(refused.model_dump(), status_code=422)
    # No transaction stays open while the tests wait for the buyer's answers (seconds, at worst).
    db.commit()
    tests = urls.run_tests(caller.buyer, wanted, config)
    if not all(test.ok for test in tests):
        return JSONResponse(urls.refusal(tests).model_dump(), status_code=422)
    urls.save_urls(db, caller, wanted, utcnow())
    db.commit()
    return urls.UrlChangeResult(settings=settings.settings_of(caller.buyer, utcnow()), tests=tests)


@portal.post("/settings/secret", response_model=settings.NewSecret,
             summary="A new signing secret, shown once; the old one keeps signing beside it for 24 hours "
                     "(a person only)")
def rotate_secret(caller: SignedInPerson, db: SessionDep, response: Response) -> settings.NewSecret:
    rotated = settings.rotate_secret(db, caller, utcnow())
    db.commit()
    # Shown once: no cache keeps the answer.
    response.headers["Cache-Control"] = "no-store"
    return rotated


@on_both("GET", "/audit", response_model=audit.BuyerAuditPage,
         summary="Who changed what in the buyer's settings, URLs, secret, pause and keys, newest first")
def read_audit(caller: SignedInBuyer, db: SessionDep, cursor: Cursor = None, limit: Limit = 50) -> audit.BuyerAuditPage:
    return audit.audit_page(db, caller.buyer.id, cursor=cursor, limit=limit)


router = both.router
