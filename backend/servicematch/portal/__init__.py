"""The tenth room: the provider portal (/pro). Joining (applications, invitations), accounts and
sessions on access's rules, one-time links, the profile, offers to accept or decline, credits,
the ledger and monthly statements, consumers' reviews, and the live events stream. Every route of
a provider's data takes its id, and a provider sees only its own data.

It sits above routing (whose offers it shows and decides) and access, and below the console,
which reviews its applications and credits.
"""
