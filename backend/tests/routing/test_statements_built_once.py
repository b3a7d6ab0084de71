"""The statements a worker runs for every lead (claiming it, its auction, deciding and settling it,
claiming and recording its post and receipt) are built once and run again, not built anew for each
lead or batch: building a statement and its cache key cost the worker more CPU than running it."""

from __future__ import annotations

from collections import Counter

import bidding_buyers
from sqlalchemy.sql import cache_key

settings, buyers, add_buyer = bidding_buyers.settings, bidding_buyers.buyers, bidding_buyers.add_buyer
sales_of = bidding_buyers.sales_of

# What one sold lead still builds once the worker has warmed up: the unit of work's inserts (its
# auction, sale and deliveries), and the provider matching an auction's close runs. The hot
# statements (about forty, before they were built once) are not among them.
MOST_BUILT_FOR_A_LEAD = 10


def _statements_built(monkeypatch) -> Counter:
    """Counts, by kind, the statements whose cache key is worked out from here on: each one built
    anew (a statement built once keeps its key)."""
    built: Counter = Counter()
    real = cache_key.HasCacheKey._generate_cache_key

    def counting(self):
        if getattr(self, "is_dml", False) or getattr(self, "is_select", False):
            built[type(self).__name__] += 1
        return real(self)

    monkeypatch.setattr(cache_key.HasCacheKey, "_generate_cache_key", counting)
    return built


def test_a_sold_lead_builds_almost_no_statement_once_the_worker_has_warmed_up(app, make_lead, worker, buyers,
                                                                          monkeypatch):
    receiver = buyers(ping_answer={"bid": 25})
    buyer_id = add_buyer(app, "Steady Leads", receiver)
    make_lead()
    worker.run_until_idle()  # the first lead builds the statements kept for later ones
    built = _statements_built(monkeypatch)
    lead = make_lead()
    worker.run_until_idle()
    assert [sale.buyer_id for sale in sales_of(app, lead.id)] == [buyer_id]
    assert len(receiver.posts) == 2
    assert sum(built.values()) <= MOST_BUILT_FOR_A_LEAD, built
