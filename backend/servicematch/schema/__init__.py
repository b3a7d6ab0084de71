"""The database's schema: every room's tables gathered in one MetaData, and the Alembic migrations
that build it. A composition root: it imports every room's models, so no room imports it.
"""
