"""The provider portal (/pro): joining (applications, invitations), signing in, the profile.

Offers, credits and the ledger are to come; the portal's routes already take a provider id, so
each addition lives under /api/pro/providers/{provider_id}/ and keeps to the same rule: a
provider sees only its own data.
"""
