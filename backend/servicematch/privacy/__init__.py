"""The sixth room: consent and privacy. The consent receipt, the one-click stop, self-service
rights requests proved by a one-time code (access, erasure, opt-out, correction), the notices to
everyone who received a lead, and the retention periods.

It sits above delivery, whose outbox carries its mail and notices, and below routing: routing
decides who gets a lead and queues the receipt naming them, so it calls privacy and never the
reverse. What must also happen when a consumer withdraws consent (routing's offers withdrawn) is
registered here by the composition roots.
"""
