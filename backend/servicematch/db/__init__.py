"""Database engine, sessions, the declarative base and migrations."""
