"""Lead delivery: the outbox, the worker, the buyer and matched providers, retries."""
