"""Plumbing: database engines and sessions, SQLite's single writer. The tables live in their rooms
and the migrations in `servicematch.schema`."""
