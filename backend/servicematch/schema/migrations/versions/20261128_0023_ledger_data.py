"""the money already on record moves into the ledger: an account for every buyer and provider (credit
terms, no limit: they keep buying as before), the providers' ledger moved over (signs turned: the
ledger keeps each entry's effect on the account's funds), a charge for every sale and an entry for
every approved return; balances are the sums of the entries; provider_ledger goes

Revision ID: 20261128_0023
Revises: 20261128_0022
Create Date: 2026-11-28 16:00:00
"""

import uuid
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "20261128_0023"
down_revision = "20261128_0022"
branch_labels = None
depends_on = None

# The tables as this revision finds them (a migration keeps its own copy: it must do tomorrow what
# it does today, whatever the application's models become).
TEXT, CENTS, MOMENT = sa.String(), sa.BigInteger(), sa.DateTime(timezone=True)


def _table(table_name: str, /, **columns) -> sa.TableClause:
    return sa.table(table_name, *(sa.column(column, kind) for column, kind in columns.items()))


accounts = _table("ledger_accounts", id=TEXT, kind=TEXT, owner_id=TEXT, name=TEXT, terms=TEXT,
                  credit_limit_cents=CENTS, net_days=sa.Integer(), balance_cents=CENTS, created_at=MOMENT,
                  updated_at=MOMENT)
entries = _table("ledger_entries", id=CENTS, account_id=TEXT, kind=TEXT, amount_cents=CENTS, cause=TEXT,
                 cause_id=TEXT, lead_id=TEXT, description=TEXT, vertical=TEXT, service=TEXT, state=TEXT, note=TEXT,
                 created_by=TEXT, created_at=MOMENT)
provider_ledger = _table("provider_ledger", id=TEXT, provider_id=TEXT, kind=TEXT, amount_cents=CENTS, lead_id=TEXT,
                         offer_id=TEXT, credit_request_id=TEXT, description=TEXT, vertical=TEXT, service=TEXT,
                         state=TEXT, created_at=MOMENT)
buyers = _table("buyers", id=TEXT, name=TEXT)
providers = _table("providers", id=TEXT, name=TEXT)
leads = _table("leads", id=TEXT, vertical=TEXT, service=TEXT, category=TEXT, state=TEXT)
sales = _table("sales", id=TEXT, lead_id=TEXT, buyer_id=TEXT, price_cents=CENTS, created_at=MOMENT)
returns = _table("lead_returns", id=TEXT, buyer_id=TEXT, lead_id=TEXT, reason=TEXT, status=TEXT, amount_cents=CENTS,
                 created_at=MOMENT, decided_at=MOMENT, decided_by=TEXT)
offers = _table("provider_offers", id=TEXT)
credit_requests = _table("credit_requests", id=TEXT, offer_id=TEXT)

# buyer/returns.py's labels when this revision was written, for the returns' descriptions.
RETURN_LABELS = {"wrong_phone": "wrong or disconnected phone", "duplicate": "duplicate",
                 "fraud": "fake or fraudulent", "under_18": "consumer under 18",
                 "outside_filters": "outside the buyer's filters", "other": "other"}
NET_DAYS = 15
BATCH = 1000


def upgrade() -> None:
    connection = op.get_bind()
    _make_accounts(connection)
    _move_provider_ledger(connection)
    _post_sales(connection)
    _post_returns(connection)
    # Every balance is the sum of its account's entries, as `servicematch ledger check` proves.
    connection.execute(accounts.update().values(balance_cents=sa.select(
        sa.func.coalesce(sa.func.sum(entries.c.amount_cents), 0)).where(
        entries.c.account_id == accounts.c.id).scalar_subquery()))
    with op.batch_alter_table("provider_ledger", schema=None) as batch_op:
        batch_op.drop_index("ix_provider_ledger_provider_created")
        batch_op.drop_index("ix_provider_ledger_lead_id")
        batch_op.drop_index("ix_provider_ledger_created")
    op.drop_table("provider_ledger")


def _make_accounts(connection) -> None:
    """One account per buyer and provider that has none yet, on credit terms with no limit."""
    now = datetime.now(UTC)
    have = set(connection.execute(sa.select(accounts.c.kind, accounts.c.owner_id)).all())
    rows = [{"id": str(uuid.uuid4()), "kind": kind, "owner_id": owner_id, "name": (name or "")[:200],
             "terms": "credit", "credit_limit_cents": None, "net_days": NET_DAYS, "balance_cents": 0,
             "created_at": now, "updated_at": now}
            for kind, table in (("buyer", buyers), ("provider", providers))
            for owner_id, name in connection.execute(sa.select(table.c.id, table.c.name).order_by(table.c.id))
            if (kind, owner_id) not in have]
    for start in range(0, len(rows), BATCH):
        connection.execute(sa.insert(accounts), rows[start:start + BATCH])


def _not_posted(cause, cause_id, kind) -> sa.ColumnElement:
    """No entry for this cause yet: the migration may run again after a downgrade."""
    posted = entries.alias("posted")
    return ~sa.exists().where(posted.c.cause == cause, posted.c.cause_id == cause_id, posted.c.kind == kind)


def _account_of(kind: str, owner_id):
    return sa.and_(accounts.c.kind == kind, accounts.c.owner_id == owner_id)


ENTRY_COLUMNS = ["account_id", "kind", "amount_cents", "cause", "cause_id", "lead_id", "description", "vertical",
                 "service", "state", "note", "created_by", "created_at"]


def _move_provider_ledger(connection) -> None:
    """A charge of 30.00 owed becomes -3000, a credit of -30.00 becomes +3000. A charge whose offer
    went with its lead (after the consent retention period) keeps its old row's id as its cause."""
    is_charge = provider_ledger.c.kind == "charge"
    cause = sa.case((is_charge, sa.literal("offer")), else_=sa.literal("credit_request"))
    cause_id = sa.case((is_charge, sa.func.coalesce(provider_ledger.c.offer_id, provider_ledger.c.id)),
                       else_=sa.func.coalesce(provider_ledger.c.credit_request_id, provider_ledger.c.id))
    moved = (sa.select(accounts.c.id, provider_ledger.c.kind, -provider_ledger.c.amount_cents, cause, cause_id,
                       provider_ledger.c.lead_id, provider_ledger.c.description, provider_ledger.c.vertical,
                       provider_ledger.c.service, provider_ledger.c.state, sa.null(), sa.literal("system"),
                       provider_ledger.c.created_at)
             .join(accounts, _account_of("provider", provider_ledger.c.provider_id))
             .where(_not_posted(cause, cause_id, provider_ledger.c.kind))
             .order_by(provider_ledger.c.created_at, provider_ledger.c.id))
    connection.execute(sa.insert(entries).from_select(ENTRY_COLUMNS, moved))


def _lead_line(first: str, lead_state) -> sa.ColumnElement:
    """"HVAC lead, TX": the lead's category and state, nothing that names a consumer."""
    return sa.literal(first, sa.String) + sa.func.coalesce(sa.literal(", ", sa.String) + lead_state, "")


def _post_sales(connection) -> None:
    """Every sale of a buyer still on record: a charge of its price, on the day it was sold."""
    cause_id = sales.c.id
    posted = (sa.select(accounts.c.id, sa.literal("charge"), -sales.c.price_cents, sa.literal("sale"), cause_id,
                        sales.c.lead_id, leads.c.category + _lead_line(" lead", leads.c.state), leads.c.vertical,
                        leads.c.service, leads.c.state, sa.null(), sa.literal("system"), sales.c.created_at)
              .join(accounts, _account_of("buyer", sales.c.buyer_id))
              .join(leads, leads.c.id == sales.c.lead_id)
              .where(_not_posted(sa.literal("sale"), cause_id, sa.literal("charge")))
              .order_by(sales.c.created_at, sales.c.id))
    connection.execute(sa.insert(entries).from_select(ENTRY_COLUMNS, posted))


def _post_returns(connection) -> None:
    """Every approved return: its amount back, when it was approved."""
    label = sa.case(RETURN_LABELS, value=returns.c.reason, else_=returns.c.reason)
    at = sa.func.coalesce(returns.c.decided_at, returns.c.created_at)
    posted = (sa.select(accounts.c.id, sa.literal("return"), returns.c.amount_cents, sa.literal("return"),
                        returns.c.id, returns.c.lead_id, sa.literal("Return: ", sa.String) + label,
                        leads.c.vertical, leads.c.service, leads.c.state, sa.null(),
                        sa.func.coalesce(returns.c.decided_by, "system"), at)
              .join(accounts, _account_of("buyer", returns.c.buyer_id))
              .outerjoin(leads, leads.c.id == returns.c.lead_id)
              .where(returns.c.status == "approved",
                     _not_posted(sa.literal("return"), returns.c.id, sa.literal("return")))
              .order_by(at, returns.c.id))
    connection.execute(sa.insert(entries).from_select(ENTRY_COLUMNS, posted))


def downgrade() -> None:
    """provider_ledger again, from the providers' charges and credits (signs turned back). The ledger
    keeps its rows: upgrading again moves only what is not there yet."""
    op.create_table(
        "provider_ledger",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("provider_id", sa.String(length=36), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("amount_cents", sa.Integer(), nullable=False),
        sa.Column("lead_id", sa.String(length=36), nullable=True),
        sa.Column("offer_id", sa.String(length=36), nullable=True),
        sa.Column("credit_request_id", sa.String(length=36), nullable=True),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("vertical", sa.String(length=64), nullable=True),
        sa.Column("service", sa.String(length=64), nullable=True),
        sa.Column("state", sa.String(length=2), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["lead_id"], ["leads.id"], name=op.f("fk_provider_ledger_lead_id_leads"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["offer_id"], ["provider_offers.id"],
                                name=op.f("fk_provider_ledger_offer_id_provider_offers"), ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["provider_id"], ["providers.id"], name=op.f("fk_provider_ledger_provider_id_providers"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_provider_ledger")),
        sa.UniqueConstraint("credit_request_id", name="uq_provider_ledger_credit_request_id"),
        sa.UniqueConstraint("offer_id", "kind", name="uq_provider_ledger_offer_id_kind"),
    )
    with op.batch_alter_table("provider_ledger", schema=None) as batch_op:
        batch_op.create_index("ix_provider_ledger_created", ["created_at"], unique=False)
        batch_op.create_index("ix_provider_ledger_lead_id", ["lead_id"], unique=False)
        batch_op.create_index("ix_provider_ledger_provider_created", ["provider_id", "created_at"], unique=False)
    _restore_provider_ledger(op.get_bind())


def _restore_provider_ledger(connection) -> None:
    lead = leads.alias("lead")
    offer = offers.alias("offer")
    is_charge = entries.c.cause == "offer"
    rows = connection.execute(
        sa.select(accounts.c.owner_id, entries.c.kind, entries.c.amount_cents, entries.c.cause_id,
                  lead.c.id.label("lead_id"), offer.c.id.label("offer_id"), credit_requests.c.id.label("request_id"),
                  credit_requests.c.offer_id.label("request_offer_id"), entries.c.description, entries.c.vertical,
                  entries.c.service, entries.c.state, entries.c.created_at)
        .join(accounts, accounts.c.id == entries.c.account_id)
        .outerjoin(lead, lead.c.id == entries.c.lead_id)
        .outerjoin(offer, sa.and_(is_charge, offer.c.id == entries.c.cause_id))
        .outerjoin(credit_requests, sa.and_(entries.c.cause == "credit_request",
                                            credit_requests.c.id == entries.c.cause_id))
        .where(accounts.c.kind == "provider", entries.c.cause.in_(("offer", "credit_request")))
        .order_by(entries.c.id)).all()
    # An entry whose offer or request is gone keeps its cause as the row's id, which upgrading
    # again takes as its cause: nothing is moved twice.
    restored = [{"id": str(uuid.uuid4()) if (row.offer_id or row.request_id) else row.cause_id,
                 "provider_id": row.owner_id, "kind": row.kind,
                 "amount_cents": -row.amount_cents, "lead_id": row.lead_id,
                 # Foreign keys again: only what still exists is named.
                 "offer_id": row.offer_id if row.kind == "charge" else row.request_offer_id,
                 "credit_request_id": row.request_id if row.kind == "credit" else None,
                 "description": row.description, "vertical": row.vertical, "service": row.service,
                 "state": row.state, "created_at": row.created_at} for row in rows]
    for start in range(0, len(restored), BATCH):
        connection.execute(sa.insert(provider_ledger), restored[start:start + BATCH])
