"""Plumbing, first in the order: what every package shares and nothing else. The UTC clock
(`as_utc` included), row ids, the ORM base, keys derived from the master secret, encryption of
personal data at rest and its keyed lookup hashes, lead references, the envelope of webhook
events, numbers in request bodies, CSV cells a spreadsheet opens safely, the garbage collector's
tuning for a server, the wake-up that follows a commit, and the timer of the worker's chores.

It imports no other package, so any package may import it without a cycle.
"""
