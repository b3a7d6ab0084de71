"""What every domain shares and nothing else: the clock, ids, the ORM base and key derivation.

The kernel imports no domain, so any domain may import it without a cycle.
"""
