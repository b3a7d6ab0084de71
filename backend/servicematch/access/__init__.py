"""The ninth room: signing in, shared by the operator console, the provider portal and the buyer
portal. Argon2id passwords, TOTP, database sessions with their CSRF tokens, one-time links,
sign-in throttling and the audit log it counts from. Each keeps its own accounts, session table
and cookie; only the rules are shared (the two portals also share their sign-in steps,
portal_signin.py).

Its place may surprise: it needs only plumbing, yet it sits high, just below the portals and the
console, the rooms people sign in to, which all import it; nothing below them does.
"""
