"""The console's money under /api/console (docs/console-api.md, "Money"): the summary (receivables,
cash per day, the last reconciliation), the accounts with their balances and holds, an account's
entries, and an admin's adjustments and reversals. Any operator reads; only admins post, and each
post is on the audit log in the same transaction.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Path, Query

from servicematch.console import adjustments, money, money_accounts
from servicematch.console.auth import AdminOnly, AnyOperator, Db
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.paging import DAY_SCHEMA, INT_CURSOR_PATTERN, MAX_LIMIT
from servicematch.console.shapes import Shape
from servicematch.deps import SettingsDep
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, ErrorBody
from servicematch.kernel.clock import utcnow

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)
AccountId = Path(alias="accountId", max_length=36)
NO_ACCOUNT = {404: {"model": ErrorBody, "description": "No account with this id"}}
REFUSED = {404: {"model": ErrorBody, "description": "No entry with this id"},
           409: {"model": ErrorBody, "description": "The entry was reversed already, or is not reversed"}}


class Posted(Shape):
    """The entry an adjustment or a reversal added, and its account after it."""

    entry: money_accounts.ConsoleEntry
    account: money_accounts.ConsoleAccount


@router.get("/money", response_model=money.MoneySummary,
            summary="What the accounts owe and how late, cash received per day of a range, the last ledger check")
def read_money(caller: AnyOperator, db: Db,
               date_from: str | None = Query(default=None, alias="from", json_schema_extra=DAY_SCHEMA),
               date_to: str | None = Query(default=None, alias="to", json_schema_extra=DAY_SCHEMA)) -> dict:
    filters = DashboardFilters.parse(date_from=date_from, date_to=date_to)
    return money.money_summary(db, filters, utcnow().date())


@router.get("/accounts", response_model=money_accounts.ConsoleAccountPage,
            summary="Buyers' and providers' accounts by name: terms, balance, what each may spend, holds")
def list_accounts(caller: AnyOperator, db: Db, kind: Literal["", "buyer", "provider"] = "",
                  status: Literal["", "held", "owing"] = "", q: str = Query(default="", max_length=200),
                  cursor: str | None = Query(default=None, pattern=r"^[A-Za-z0-9_-]{0,400}$"),
                  limit: int = Query(default=50, ge=1, le=MAX_LIMIT)) -> dict:
    return money_accounts.account_page(db, kind=kind, shown=status, q=q, cursor=cursor, limit=limit,
                                       today=utcnow().date())


@router.get("/accounts/{accountId}", response_model=money_accounts.ConsoleAccountEntries, responses=NO_ACCOUNT,
            summary="One account and its entries, newest first, each with the balance after it")
def read_account(caller: AnyOperator, db: Db, account_id: str = AccountId,
                 cursor: str | None = Query(default=None, pattern=INT_CURSOR_PATTERN),
                 limit: int = Query(default=50, ge=1, le=MAX_LIMIT)) -> dict:
    return money_accounts.account_entries(db, account_id, cursor=cursor, limit=limit, today=utcnow().date())


def _posted(db, entry) -> dict:
    db.commit()
    account = money_accounts.find_account(db, entry.account_id)
    return {"entry": money_accounts.entries_json(db, account, [entry])[0],
            "account": money_accounts.accounts_json(db, [account], utcnow().date())[0]}


@router.post("/accounts/{accountId}/adjustments", status_code=201, response_model=Posted, responses=NO_ACCOUNT,
             summary="Adjust an account's balance by a signed amount of dollars, with a note (admins; audited)")
def add_adjustment(body: adjustments.Adjustment, caller: AdminOnly, db: Db, settings: SettingsDep,
                   account_id: str = AccountId) -> dict:
    return _posted(db, adjustments.adjust(db, caller, account_id, body, grace_days=settings.overdue_grace_days))


@router.post("/entries/{entryId}/reverse", status_code=201, response_model=Posted, responses=REFUSED,
             summary="Undo one entry with its exact opposite, once, with a note (admins; audited)")
def reverse_entry(body: adjustments.Reversal, caller: AdminOnly, db: Db, settings: SettingsDep,
                  entry_id: str = Path(alias="entryId", pattern=r"^[0-9]{1,18}$")) -> dict:
    return _posted(db, adjustments.reverse(db, caller, int(entry_id), body, grace_days=settings.overdue_grace_days))
