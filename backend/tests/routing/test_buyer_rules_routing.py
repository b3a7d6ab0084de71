"""The buyers' own duplicate rules in a real auction: a buyer is not pinged for a request of a person
it was pinged for already (a pass saying why), a buyer without a rule keeps the site's, and a buyer
with a rule that never had the earlier request is pinged for the repeat."""

from __future__ import annotations

import bidding_buyers
from sqlalchemy import update

from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.routing.buyer_rules import SITE_DUPLICATE
from servicematch.routing.models import Buyer
from servicematch.routing.reports import waterfall

# Fixtures (pytest finds them here) and the helper shared with the other auction tests of the gate.
settings, buyers, add_buyer = bidding_buyers.settings, bidding_buyers.buyers, bidding_buyers.add_buyer

PHONE = "5125550199"


def set_paused(app, buyer_id: str, paused: bool) -> None:
    with app.state.session_factory() as session:
        session.execute(update(Buyer).where(Buyer.id == buyer_id).values(paused_at=utcnow() if paused else None))
        session.commit()


def test_a_repeat_goes_only_to_the_buyer_whose_own_rule_lets_it(app, make_lead, buyers, session_factory):
    own, site, newcomer = (buyers(ping_answer={"bid": 20}) for _ in range(3))
    rule = {"duplicate_days": 30, "duplicate_match": "phone", "duplicate_scope": "service"}
    add_buyer(app, "Own Rule Leads LLC", own, **rule)
    add_buyer(app, "Site Rule Leads LLC", site)
    newcomer_id = add_buyer(app, "Newcomer Leads LLC", newcomer, **rule)
    # The newcomer is paused while the first request is auctioned: it never has it.
    set_paused(app, newcomer_id, True)
    first = make_lead(phone=PHONE)
    assert (len(own.pings), len(site.pings), len(newcomer.pings)) == (1, 1, 0)
    set_paused(app, newcomer_id, False)

    repeat = make_lead(phone=PHONE)
    with session_factory() as session:
        assert session.get(Lead, repeat.id).is_duplicate and not session.get(Lead, first.id).is_duplicate
        steps = waterfall(session, repeat.id)
    # Only the buyer whose own rule does not call it a duplicate is pinged for the repeat.
    assert (len(own.pings), len(site.pings), len(newcomer.pings)) == (1, 1, 1)
    by_buyer = {}
    for step in steps:
        by_buyer.setdefault(step["buyer"], []).append(step)
    assert [step["kind"] for step in by_buyer["Own Rule Leads LLC"]] == ["pass"]
    assert by_buyer["Own Rule Leads LLC"][0]["detail"].startswith(
        "a duplicate by your rule (same phone, same service, within 30 days): you were pinged for or bought")
    assert [(step["kind"], step["detail"]) for step in by_buyer["Site Rule Leads LLC"]] == [("pass", SITE_DUPLICATE)]
    assert "ping" in [step["kind"] for step in by_buyer["Newcomer Leads LLC"]]
