"""The eleventh room: the operator console's JSON API under /api/console (docs/console-api.md;
its page is /admin). Operators and their sessions on access's rules, the dashboard, lead search,
deliveries, providers, buyers, credits, applications, reviews and the audit log.

It reads nearly every room below it (reporting's counts, routing's auctions, the portal's
applications and credits), so it sits at the top of the rooms people use; none of them imports it.
"""
