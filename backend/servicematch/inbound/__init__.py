"""Plumbing for what arrives over HTTP, whatever the room: per-client rate limits, the client's
address behind our proxies, the request body's size limit, and the text and number rules that
every form and API field shares (e-mail, phone, ZIP, dates, control characters).

It knows nothing of leads, buyers or providers, and imports no room.
"""
