"""A composition root: the database's schema. Every room's tables gathered in one MetaData
(registry.py) and the Alembic migrations that build it (migrate.py, migrations/).

It imports every room's models, so it cannot be a room: no room imports it, and the tables stay
in the rooms that own them.
"""
