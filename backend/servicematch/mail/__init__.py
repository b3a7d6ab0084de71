"""Plumbing, after settings: one way to send a message to a person, by SMTP or, while no SMTP host
is set, into the local mailbox (`servicematch mail list|show`). It knows who to send to only
because a room says so; it imports nothing but outbound and settings.
"""
