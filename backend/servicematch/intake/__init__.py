"""The third room: lead intake. Parse a submission, answer a replay of its `requestId`, verify
reCAPTCHA, re-check it against the catalogue, encrypt it, and commit it with its consent
evidence and one "lead accepted" event in one transaction (a LeadStore: simple or batched);
the status token that lets the submitting browser read what became of it.

It sits below everything that happens to a lead afterwards: routing, delivery and privacy read
its tables, and intake knows none of them.
"""
