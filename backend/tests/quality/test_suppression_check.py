"""The suppression check: a lead's phone and e-mail, hashed both ways, against every global list
and the own lists of the buyers asked about, in one query; plain entries stored only as digests."""

from __future__ import annotations

import hashlib

import pytest
from sold_leads import store_lead
from sqlalchemy import select
from statements_run import statements_run

from servicematch.intake.models import Lead
from servicematch.privacy.actions import erase
from servicematch.quality.suppression import (
    Suppression,
    SuppressionEntry,
    lead_suppression,
    normalise_list_email,
    normalise_phone,
    suppressed,
    suppressed_each,
)
from servicematch.quality.suppression_import import ImportRequest, import_list

PHONE, EMAIL = "5125550142", "maria.garcia@example.com"


def _import(app, lines: list[str], name: str, **request) -> None:
    with app.state.engine.connect() as connection:
        import_list(connection, lines, ImportRequest(list_name=name, **request))
        connection.commit()



def _check(app, phone: str | None = PHONE, email: str | None = EMAIL, buyer_ids=()) -> Suppression:
    with app.state.session_factory() as session:
        return suppressed(session, phone=phone, email=email, buyer_ids=buyer_ids)


@pytest.mark.parametrize(("typed", "digits"), [
    ("5125550142", "5125550142"), ("(512) 555-0142", "5125550142"), ("+1 512 555 0142", "5125550142"),
    ("1-512-555-0142", "5125550142"), ("512.555.0142", "5125550142"), (" 15125550142 ", "5125550142"),
    ("512555014", None), ("25125550142", None), ("0125550142", None), ("512555014x", None), ("", None),
    ("٥١٢٥٥٥٠١٤٢", None),
])
def test_a_phone_is_normalised_to_its_ten_us_digits(typed, digits):
    assert normalise_phone(typed) == digits


@pytest.mark.parametrize(("typed", "address"), [
    ("  Maria.Garcia@Example.COM ", "maria.garcia@example.com"), ("a@b.co", "a@b.co"),
    ("no-at-sign.example.com", None), ("@example.com", None), ("maria@localhost", None),
    ("maria garcia@example.com", None), ("", None),
])
def test_an_email_is_trimmed_and_lower_cased(typed, address):
    assert normalise_list_email(typed) == address


def test_a_lead_on_a_global_list_is_blocked_for_everyone_with_a_reason_code(app):
    _import(app, ["(512) 555-0142"], "litigators")
    _import(app, ["Maria.Garcia@Example.com"], "complainers")
    found = _check(app)
    assert found.global_lists == ["complainers", "litigators"]
    assert found.blocks_everyone and found.buyers == {}
    assert found.reason_codes() == ["suppressed:complainers", "suppressed:litigators"]
    assert _check(app, phone="5125550199", email="someone@example.com") == Suppression()
    assert not Suppression().blocks_everyone


def test_plain_entries_are_stored_as_sha256_digests_only(app):
    _import(app, ["(512) 555-0142", "Maria.Garcia@Example.com", "5125550143"], "mixed", kind="phone")
    with app.state.session_factory() as session:
        stored = {(row.algorithm, bytes(row.digest)) for row in session.scalars(select(SuppressionEntry))}
    assert stored == {("sha256", hashlib.sha256(b"5125550142").digest()),
                      ("sha256", hashlib.sha256(b"5125550143").digest())}


@pytest.mark.parametrize("algorithm", ["md5", "sha256"])
def test_a_buyers_hashed_list_matches_the_leads_value_hashed_the_same_way(app, algorithm):
    digest = hashlib.new(algorithm, EMAIL.encode()).hexdigest().upper()
    _import(app, [digest], "customers", hashed=algorithm, kind="email")
    assert _check(app).global_lists == ["customers"]
    assert _check(app, email="MARIA.GARCIA@example.com ").global_lists == ["customers"]


@pytest.mark.parametrize("form", ["5125550142", "15125550142", "+15125550142"])
def test_phone_digests_match_with_or_without_the_country_code(app, form):
    """Ours is ten digits; a file hashed for the ad platforms (1 or +1 first) matches too."""
    _import(app, [hashlib.sha256(form.encode()).hexdigest()], "platform-audience", hashed="sha256", kind="phone")
    assert _check(app, phone="(512) 555-0142").global_lists == ["platform-audience"]


def test_a_buyers_own_list_spares_the_other_buyers(make_buyer, app):
    leads_direct, quote_co = make_buyer("Leads Direct"), make_buyer("Quote Co")
    _import(app, [PHONE], "leads-direct-customers", buyer_id=leads_direct)
    _import(app, [EMAIL], "leads-direct-old", buyer_id=leads_direct)
    found = _check(app, buyer_ids=[leads_direct, quote_co])
    assert found.global_lists == [] and not found.blocks_everyone
    assert found.buyers == {leads_direct: "leads-direct-customers"}
    # A buyer's list says nothing unless routing asks about that buyer.
    assert _check(app, buyer_ids=[quote_co]) == Suppression()
    assert _check(app) == Suppression()


def test_a_phone_list_never_matches_an_email_and_the_other_way_round(app):
    _import(app, [hashlib.sha256(EMAIL.encode()).hexdigest()], "phones-by-mistake", hashed="sha256", kind="phone")
    assert _check(app) == Suppression()


def test_the_check_is_one_query_whatever_it_is_asked(make_buyer, app):
    buyers = [make_buyer(f"Buyer {n}") for n in range(3)]
    _import(app, [PHONE], "litigators")
    with statements_run(app.state.engine) as statements:
        assert _check(app, buyer_ids=buyers).global_lists == ["litigators"]
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1


def test_a_round_of_leads_is_checked_in_one_query_each_as_if_alone(make_buyer, app):
    leads_direct, quote_co = make_buyer("Leads Direct"), make_buyer("Quote Co")
    _import(app, [PHONE], "litigators")
    _import(app, ["5125550199"], "leads-direct-customers", buyer_id=leads_direct)
    _import(app, [EMAIL], "quote-co-old", buyer_id=quote_co)
    asks = {
        "on a global list": (PHONE, "someone@example.com", [leads_direct, quote_co]),
        "on one buyer's list": ("5125550199", "other@example.com", [leads_direct, quote_co]),
        # The same number, but routing does not ask about that buyer for this lead.
        "its buyer not asked about": ("5125550199", None, [quote_co]),
        "on the other buyer's list by e-mail": ("5125550123", EMAIL, [leads_direct, quote_co]),
        "on none": ("5125550124", "nobody@example.com", [leads_direct]),
        "nothing to check": ("", None, [leads_direct]),
    }
    with statements_run(app.state.engine) as statements, app.state.session_factory() as session:
        together = suppressed_each(session, asks)
    assert len(statements) == 1
    alone = {key: _check(app, phone=phone, email=email, buyer_ids=buyer_ids)
             for key, (phone, email, buyer_ids) in asks.items()}
    assert together == alone
    assert together["on a global list"].global_lists == ["litigators"]
    assert together["on one buyer's list"] == Suppression(buyers={leads_direct: "leads-direct-customers"})
    assert together["its buyer not asked about"] == Suppression()
    assert together["on the other buyer's list by e-mail"] == Suppression(buyers={quote_co: "quote-co-old"})
    assert together["on none"] == together["nothing to check"] == Suppression()


def test_nothing_to_check_asks_nothing(app):
    assert _check(app, phone="", email=None) == Suppression()
    assert _check(app, phone="not a phone", email="not an e-mail") == Suppression()


def test_a_stored_lead_is_checked_on_its_decrypted_phone_and_email(make_buyer, app):
    lead = store_lead(app, phone=PHONE, email=EMAIL)
    buyer = make_buyer("Leads Direct")
    _import(app, [EMAIL.upper()], "customers", buyer_id=buyer)
    _import(app, ["512-555-0142"], "litigators")
    with app.state.session_factory() as session:
        stored = session.get(Lead, lead.id)
        found = lead_suppression(session, app.state.settings, stored, [buyer])
        assert (found.global_lists, found.buyers) == (["litigators"], {buyer: "customers"})
        erase(session=session, settings=app.state.settings, leads=[stored], reason="request", now=stored.created_at,
              notify=False)
        # An erased lead has no phone or e-mail left to match.
        assert lead_suppression(session, app.state.settings, stored, [buyer]) == Suppression()
