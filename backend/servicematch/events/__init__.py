"""The fourth room: first-party funnel events from the site's pages (page views, steps,
submissions, call clicks), checked against the catalogue, queued in memory, written in batches
by one thread of the web process, counted by day and kept raw for a limited time. It needs only
the catalogue and plumbing; reporting and the console read its counts.
"""
