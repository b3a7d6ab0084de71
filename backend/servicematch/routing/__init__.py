"""The seventh room: who gets a lead. Buyers and their filters, buying hours, pings and bids, the
ping-post auction, provider matching, caps and budgets, offers to providers in review mode and
their prices, and the choice of recipients (never more than three companies); run by the worker
after intake has committed the lead. Also the thank-you page's status read.

Its place may surprise: it sits above delivery and privacy, though a lead reaches it before it
is delivered. Routing decides who gets a lead; delivery and privacy carry the decision out
(posts, webhooks, e-mails, the consent receipt), so routing calls them, never the reverse.
"""
