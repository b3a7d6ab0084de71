"""Plumbing, last of it, just below the rooms: what arrives over HTTP, whatever the room. Per-client
rate limits (in memory or Redis), the client's address behind our proxies, the request body's
size limit, and the text and number rules that every form and API field shares (e-mail, phone,
ZIP, dates, control characters).

Its place may surprise: it began in intake, but the portal, the console, events and privacy
count and check requests the same way, so it knows nothing of leads, buyers or providers and
imports no room (only settings, errors and deps, below it).
"""
