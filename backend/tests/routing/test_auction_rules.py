"""The choice of recipients, as pure rules: what earns most, never more than three companies."""

from __future__ import annotations

from servicematch.routing.auction import EXCLUSIVE, SHARED, Offer, next_step

A_EXCL = Offer("a", 4000, True)
B_EXCL = Offer("b", 3000, True)
C, D, E, F = Offer("c", 1500, False), Offer("d", 1200, False), Offer("e", 900, False), Offer("f", 100, False)


def step(offers, **state):
    defaults = {"mode": None, "tried": set(), "pending": 0, "accepted": 0, "fixed_seats": 0,
                "providers_routed": None}
    return next_step(offers=offers, **{**defaults, **state})


def test_an_exclusive_bid_wins_when_it_beats_the_best_three_shared_bids_together():
    assert step([A_EXCL, C, D, E]) .post_to == (A_EXCL,)
    assert step([A_EXCL, C, D, E]).mode == EXCLUSIVE
    richer_shared = [Offer("x", 2000, False), Offer("y", 1500, False), Offer("z", 1000, False)]
    chosen = step([A_EXCL, *richer_shared])
    assert chosen.mode == SHARED and chosen.post_to == tuple(richer_shared)


def test_shared_buyers_take_the_seats_by_bid_and_providers_the_rest():
    chosen = step([F, C, D, E])
    assert chosen.post_to == (C, D, E) and chosen.provider_seats == 0
    one = step([C])
    assert one.post_to == (C,) and one.provider_seats == 2
    nobody = step([])
    assert nobody.post_to == () and nobody.provider_seats == 3 and nobody.close


def test_a_refused_exclusive_post_passes_to_the_next_bid_and_a_taken_one_closes():
    after_refusal = step([A_EXCL, B_EXCL, C], mode=EXCLUSIVE, tried={"a"})
    assert after_refusal.post_to == (B_EXCL,)
    while_posting = step([A_EXCL, B_EXCL], mode=EXCLUSIVE, tried={"a"}, pending=1)
    assert while_posting.post_to == () and not while_posting.close
    assert step([A_EXCL, B_EXCL], mode=EXCLUSIVE, tried={"a"}, accepted=1).close
    every_exclusive_refused = step([A_EXCL, B_EXCL, C], mode=EXCLUSIVE, tried={"a", "b"})
    assert every_exclusive_refused.mode == SHARED and every_exclusive_refused.post_to == (C,)


def test_a_refused_shared_seat_goes_to_the_next_shared_bid_never_past_three_companies():
    # c refused; d and e took theirs; f is next but all three seats are taken (d, e, one provider).
    full = step([C, D, E, F], mode=SHARED, tried={"c", "d", "e"}, accepted=2, providers_routed=1)
    assert full.post_to == () and full.close
    # c's post never reached it (its connection was refused): its seat is free again.
    free = step([C, D, E, F], mode=SHARED, tried={"c", "d", "e"}, accepted=2, providers_routed=0)
    assert free.post_to == (F,)
    # c refused after it received the details: it holds its seat, so f gets nothing.
    held = step([C, D, E, F], mode=SHARED, tried={"c", "d", "e"}, accepted=2, held=1, providers_routed=0)
    assert held.post_to == () and held.close


def test_three_buyers_that_saw_the_details_end_the_lead_whatever_they_answered():
    others = [Offer(name, 500, True) for name in "xyz"]
    after_three = step([A_EXCL, B_EXCL, *others], mode=EXCLUSIVE, tried={"a", "b", "x"}, held=3)
    assert after_three.post_to == () and after_three.close and after_three.provider_seats == 0
    after_two = step([A_EXCL, B_EXCL, *others], mode=EXCLUSIVE, tried={"a", "b"}, held=2)
    assert after_two.post_to == (others[0],)
    # Shared: two refusals leave one seat, for the best shared bid or a provider.
    assert step([C, D, E], mode=SHARED, tried={"c", "d"}, held=2).post_to == (E,)
    assert step([C, D], mode=SHARED, tried={"c", "d"}, held=2).provider_seats == 1


def test_an_exclusive_post_given_up_in_doubt_ends_the_auction():
    in_doubt = step([A_EXCL, B_EXCL, C], mode=EXCLUSIVE, tried={"a"}, held=1, in_doubt=True)
    assert in_doubt.post_to == () and in_doubt.close and in_doubt.provider_seats == 0
    # While it is still being asked again (pending), nothing else happens either.
    waiting = step([A_EXCL, B_EXCL, C], mode=EXCLUSIVE, tried={"a"}, pending=1)
    assert waiting.post_to == () and not waiting.close


def test_the_fixed_buyer_takes_a_seat_and_rules_out_an_exclusive_sale():
    chosen = step([A_EXCL, C, D, E], fixed_seats=1)
    assert chosen.mode == SHARED and chosen.post_to == (C, D)
