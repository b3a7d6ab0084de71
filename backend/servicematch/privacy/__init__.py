"""Consent and privacy: receipts, one-click stop, self-service rights requests and retention."""
