"""Plumbing every room uses to send a message and record what happened: the guarded HTTP client,
Standard Webhooks signing, and how an answer is classified. It knows nothing of leads, buyers,
providers or receipts, and imports no room."""
