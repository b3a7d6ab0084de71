"""What every domain shares and nothing else: the clock, ids, the ORM base, key derivation and
encryption at rest.

The kernel imports no domain, so any domain may import it without a cycle.
"""
