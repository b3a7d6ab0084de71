"""Plumbing, after mail: database engines and sessions for SQLite or PostgreSQL, and SQLite's
single writer (this process's writers queue on a lock, not in SQLite's busy handler).

It holds no table: each room declares its own, and the schema root (`servicematch.schema`)
gathers them and owns the migrations, so db imports no other package.
"""
