"""GET /api/ratings: the reviews' average and count for the public site, only from MIN_REVIEWS
visible reviews on, hidden ones left out, cached, and naming nobody."""

from __future__ import annotations

from offer_rows import portal_provider

from servicematch.kernel.clock import utcnow
from servicematch.portal.models import ProviderReview
from servicematch.portal.public_ratings import MIN_REVIEWS, RatingCache, review_aggregate


def add_reviews(app, stars: list[int], *, hidden: int = 0, name: str = "Cool Air LLC") -> None:
    with app.state.session_factory() as session:
        provider = portal_provider(session, name)
        for index, count in enumerate(stars):
            session.add(ProviderReview(provider_id=provider.id, stars=count, text="Private words",
                                       city="Austin", state="TX",
                                       hidden_at=utcnow() if index < hidden else None,
                                       hidden_by="ops@example.com" if index < hidden else None))
        session.commit()


def fresh(client) -> dict:
    client.app.state.public_rating_cache = RatingCache(seconds=0)  # no cache: each read sees the table
    answer = client.get("/api/ratings")
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_without_reviews_nothing_is_shown_and_the_answer_is_cacheable(client):
    answer = client.get("/api/ratings")
    assert answer.status_code == 200
    assert answer.json() == {"shown": False, "average": None, "count": 0, "minimum": MIN_REVIEWS}
    assert answer.headers["Cache-Control"] == "public, max-age=300"


def test_below_the_minimum_no_average_or_count_leaves_the_server(app, client):
    add_reviews(app, [5] * (MIN_REVIEWS - 1))
    assert fresh(client) == {"shown": False, "average": None, "count": 0, "minimum": MIN_REVIEWS}


def test_from_the_minimum_on_the_visible_reviews_average_and_count_are_shown(app, client):
    # Twelve reviews, two hidden by an operator (both 1 star): ten visible, across two providers.
    add_reviews(app, [1, 1, 5, 5, 4, 4], hidden=2)
    add_reviews(app, [5, 4, 4, 3, 5, 5], name="Lone Star Heating")
    answer = fresh(client)
    assert answer == {"shown": True, "average": 4.4, "count": 10, "minimum": MIN_REVIEWS}
    assert "Private words" not in str(answer) and "Austin" not in str(answer)


def test_the_aggregate_is_read_again_only_once_the_cache_is_old(app):
    now = [0.0]
    cache = RatingCache(seconds=300, clock=lambda: now[0])
    factory = app.state.session_factory
    assert cache.get(factory).count == 0
    add_reviews(app, [5] * MIN_REVIEWS)
    now[0] = 299
    assert cache.get(factory).count == 0  # still the first read
    now[0] = 300
    assert cache.get(factory).count == MIN_REVIEWS
    with factory() as session:
        assert review_aggregate(session).average == 5.0
