"""Each buyer's own rules before a ping: its minimum quality score, and its duplicate rule (phone,
e-mail or either; the same service or any; its window), judged for all of a lead's buyers in one
query; the site's rule for a buyer without one; a provider's minimum score."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from sold_leads import store_lead
from sqlalchemy import event

from servicematch.delivery.models import Provider
from servicematch.errors import ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.routing.buyer_rules import (
    SITE_DUPLICATE,
    BuyerRules,
    check_rules,
    excluded_buyers,
    provider_accepts,
    provider_refusal,
)
from servicematch.routing.buyers import BuyerTerms, add_buyer
from servicematch.routing.models import AuctionStep, Buyer, Sale, StepKind

ROOFING = ("roofing", "services")
_people = itertools.count(1)


def person() -> dict:
    """A consumer of its own: a phone and an e-mail nobody else in the test has."""
    n = next(_people)
    return {"phone": f"737555{n:04d}", "email": f"person{n}@example.com"}


def buyer(app, **rules) -> Buyer:
    with app.state.session_factory() as session:
        made = add_buyer(session, BuyerTerms(name=f"Buyer {new_id()[:8]}", post_url="https://buyer.example/leads",
                                             price_cents=3000), allow_private=True)
        for name, value in rules.items():
            setattr(made, name, value)
        session.commit()
        session.refresh(made)
        session.expunge(made)
        return made


def earlier_lead(app, *, days_ago: float, seen_by: list[Buyer], kind: str = StepKind.PING, **lead) -> str:
    """A request stored `days_ago` days ago whose auction gave each of `seen_by` a step of `kind` (a
    sale for "sale")."""
    stored = store_lead(app, **lead)
    at = utcnow() - timedelta(days=days_ago)
    with app.state.session_factory() as session:
        session.get(Lead, stored.id).created_at = at
        for each in seen_by:
            if kind == "sale":
                session.add(Sale(lead_id=stored.id, buyer_id=each.id, price_cents=3000, created_at=at))
            else:
                session.add(AuctionStep(lead_id=stored.id, buyer_id=each.id, kind=kind, at_ms=5, created_at=at))
        session.commit()
    return stored.id


def judged(app, lead_id: str, buyers: list[Buyer], *, now=None, score: int | None = 80) -> dict[str, str]:
    with app.state.session_factory() as session:
        lead = session.get(Lead, lead_id)
        lead.quality_score = score
        return excluded_buyers(session, lead=lead, buyers=buyers, now=now or utcnow())


def new_lead(app, **lead) -> str:
    return store_lead(app, **lead).id


# -- the minimum score ------------------------------------------------------------------------------

def test_a_buyer_is_not_pinged_for_a_lead_under_its_minimum_score(app):
    strict, easy, any_score = buyer(app, min_quality=60), buyer(app, min_quality=0), buyer(app)
    lead_id = new_lead(app, **person())
    buyers = [strict, easy, any_score]
    assert judged(app, lead_id, buyers, score=59) == {strict.id: "quality score 59 is under your minimum of 60"}
    assert judged(app, lead_id, buyers, score=60) == {}
    # Not scored by the gate: it meets no minimum, not even 0 (whoever set one asked for scored leads).
    assert judged(app, lead_id, buyers, score=None) == {
        strict.id: "no quality score (under your minimum of 60)", easy.id: "no quality score (under your minimum of 0)"}


def test_a_provider_takes_only_leads_at_or_over_its_minimum():
    provider, lead = Provider(name="Cool Air", min_quality=70), Lead(quality_score=69)
    assert not provider_accepts(provider, lead)
    assert provider_refusal(provider, lead) == "quality score 69 is under its minimum of 70"
    lead.quality_score = 70
    assert provider_accepts(provider, lead) and provider_refusal(provider, lead) is None
    assert provider_accepts(Provider(name="Any", min_quality=None), Lead(quality_score=None))
    assert not provider_accepts(provider, Lead(quality_score=None))


# -- duplicate rules ---------------------------------------------------------------------------------

RULES = {(match, scope): {"duplicate_days": 30, "duplicate_match": match, "duplicate_scope": scope}
         for match in ("phone", "email", "either") for scope in ("service", "all")}


@pytest.mark.parametrize(("shared", "service"), [
    ("phone", "same"), ("phone", "other"), ("email", "same"), ("email", "other")])
def test_each_match_and_scope_calls_its_own_duplicates(app, shared, service):
    """An earlier request of the same person (by phone only, or by e-mail only; in the same service or
    another) that every buyer was pinged for: a duplicate to exactly the rules that match it."""
    buyers = {rule: buyer(app, **values) for rule, values in RULES.items()}
    first, second = person(), person()
    # The earlier request shares one key with the new one, never both.
    earlier = {"phone": first["phone"], "email": second["email"]} if shared == "phone" else {
        "phone": second["phone"], "email": first["email"]}
    earlier_lead(app, days_ago=3, seen_by=list(buyers.values()), service=ROOFING if service == "other" else
                 ("hvac", "services"), **earlier)
    lead_id = new_lead(app, **first)
    excluded = judged(app, lead_id, list(buyers.values()))
    expected = {rule for rule in RULES
                if rule[0] in (shared, "either") and (rule[1] == "all" or service == "same")}
    assert {rule for rule, made in buyers.items() if made.id in excluded} == expected
    for rule in expected:
        reason = excluded[buyers[rule].id]
        assert reason.startswith("a duplicate by your rule (same ") and "within 30 days): you were pinged for" in reason


def test_the_window_counts_back_from_now_each_buyer_its_own(app):
    week, month = buyer(app, duplicate_days=7), buyer(app, duplicate_days=30)
    consumer = person()
    now = utcnow()
    earlier_lead(app, days_ago=7 + 1 / 1440, seen_by=[week, month], **consumer)  # a minute past a week
    lead_id = new_lead(app, **consumer)
    assert set(judged(app, lead_id, [week, month], now=now)) == {month.id}
    earlier_lead(app, days_ago=7 - 1 / 1440, seen_by=[week], **consumer)  # a minute inside it
    assert set(judged(app, lead_id, [week, month], now=now)) == {week.id, month.id}
    # At the window's very edge a request still counts; a minute past it, no longer.
    other = person()
    edge_id = earlier_lead(app, days_ago=30, seen_by=[month], **other)
    with app.state.session_factory() as session:
        edge = session.get(Lead, edge_id).created_at
    again = new_lead(app, **other)
    assert set(judged(app, again, [month], now=edge + timedelta(days=30))) == {month.id}
    assert judged(app, again, [month], now=edge + timedelta(days=30, minutes=1)) == {}


def test_only_a_ping_a_post_or_a_sale_counts_never_a_pass(app):
    pinged, posted, bought, passed, stranger = (buyer(app, duplicate_days=30) for _ in range(5))
    consumer = person()
    earlier_lead(app, days_ago=1, seen_by=[pinged], **consumer)
    earlier_lead(app, days_ago=1, seen_by=[posted], kind=StepKind.POST, **consumer)
    earlier_lead(app, days_ago=1, seen_by=[bought], kind="sale", **consumer)
    # A buyer excluded (or not on the partner list) has a pass and no ping: it never had the lead.
    earlier_lead(app, days_ago=1, seen_by=[passed], kind=StepKind.PASS, **consumer)
    lead_id = new_lead(app, **consumer)
    assert set(judged(app, lead_id, [pinged, posted, bought, passed, stranger])) == {pinged.id, posted.id, bought.id}


def test_the_newest_earlier_request_is_the_one_named(app):
    ruled = buyer(app, duplicate_days=60, duplicate_match="either", duplicate_scope="all")
    consumer = person()
    earlier_lead(app, days_ago=40, seen_by=[ruled], **consumer)
    newest = earlier_lead(app, days_ago=2, seen_by=[ruled], **consumer)
    with app.state.session_factory() as session:
        day = session.get(Lead, newest).created_at
    lead_id = new_lead(app, **consumer)
    assert judged(app, lead_id, [ruled]) == {ruled.id: (
        "a duplicate by your rule (same phone or e-mail, any service, within 60 days): you were pinged for or "
        f"bought this consumer's request of {day:%Y-%m-%d}")}


def test_a_buyer_without_a_rule_keeps_the_sites_and_one_with_a_rule_only_its_own(app):
    site, own = buyer(app), buyer(app, duplicate_days=10)
    consumer = person()
    # Forty days ago: outside the buyer's own ten days; intake still calls the new one a duplicate
    # only within its own window (30 days by default), so it is marked here by hand.
    earlier_lead(app, days_ago=40, seen_by=[site, own], **consumer)
    lead_id = new_lead(app, **consumer)
    assert judged(app, lead_id, [site, own]) == {}
    with app.state.session_factory() as session:
        session.get(Lead, lead_id).is_duplicate = True
        session.commit()
    assert judged(app, lead_id, [site, own]) == {site.id: SITE_DUPLICATE}


def test_a_lead_of_someone_new_or_without_the_key_a_rule_matches_is_no_ones_duplicate(app):
    by_email = buyer(app, duplicate_days=30, duplicate_match="email")
    consumer = {**person(), "email": ""}
    earlier_lead(app, days_ago=1, seen_by=[by_email], **consumer)
    assert judged(app, new_lead(app, **consumer), [by_email]) == {}
    assert judged(app, new_lead(app, **person()), [by_email]) == {}


def test_every_buyer_with_a_rule_is_judged_in_one_query_and_none_without(app):
    ruled = [buyer(app, duplicate_days=days, duplicate_match=match, duplicate_scope=scope)
             for days, match, scope in ((5, "phone", "service"), (30, "email", "all"), (90, "either", "all"))
             for _ in range(4)]
    plain = [buyer(app, min_quality=10) for _ in range(8)]
    consumer = person()
    earlier_lead(app, days_ago=20, seen_by=ruled[4:], **consumer)
    lead_id = new_lead(app, **consumer)
    engine = app.state.engine
    statements: list[str] = []

    def count(conn, cursor, statement, *args):
        statements.append(statement)

    with app.state.session_factory() as session:
        lead = session.get(Lead, lead_id)
        lead.quality_score = 50
        session.flush()
        event.listen(engine, "before_cursor_execute", count)
        try:
            excluded = excluded_buyers(session, lead=lead, buyers=ruled + plain, now=utcnow())
            assert len(statements) == 1
            statements.clear()
            # The buyers without a rule of their own keep the site's: intake's mark, read with no query.
            assert excluded_buyers(session, lead=lead, buyers=plain, now=utcnow()) == {
                made.id: SITE_DUPLICATE for made in plain}
            assert statements == []
        finally:
            event.remove(engine, "before_cursor_execute", count)
    assert set(excluded) == {made.id for made in ruled[4:] + plain}


# -- bounds --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("rules", "field"), [
    (BuyerRules(min_quality=-1), "min_quality"),
    (BuyerRules(min_quality=101), "min_quality"),
    (BuyerRules(min_quality=True), "min_quality"),
    (BuyerRules(duplicate_days=0), "duplicate_days"),
    (BuyerRules(duplicate_days=366), "duplicate_days"),
    (BuyerRules(duplicate_match="fax"), "duplicate_match"),
    (BuyerRules(duplicate_scope="vertical"), "duplicate_scope"),
])
def test_rules_out_of_bounds_are_a_422_naming_the_field(rules, field):
    with pytest.raises(ServiceMatchError) as refused:
        check_rules(rules)
    assert refused.value.status_code == 422 and list(refused.value.fields) == [field]


def test_rules_at_their_bounds_pass():
    for rules in (BuyerRules(min_quality=0, duplicate_days=1), BuyerRules(min_quality=100, duplicate_days=365,
                                                                        duplicate_match="either", duplicate_scope="all")):
        assert check_rules(rules) is rules
