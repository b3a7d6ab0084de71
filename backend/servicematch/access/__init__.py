"""The ninth room: signing in, shared by the operator console and the provider portal. Argon2id
passwords, TOTP, database sessions with their CSRF tokens, sign-in throttling and the audit log
it counts from. Each of the two keeps its own accounts, session table and cookie; only the rules
are shared.

Its place may surprise: it needs only plumbing, yet it sits high, just below the portal and the
console, the two rooms people sign in to, which both import it; nothing below them does.
"""
