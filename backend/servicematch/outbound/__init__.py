"""Plumbing, second in the order: what every room uses to send a message and learn what became
of it. The guarded HTTP client (one total deadline per attempt, no private addresses unless
settings allow them), Standard Webhooks signing, and how an answer is classified: delivered,
rejected, or to be tried again.

It knows nothing of leads, buyers, providers or receipts and imports no other package: delivery,
privacy and routing all send through it, and settings reads its rule for signing secrets.
"""
