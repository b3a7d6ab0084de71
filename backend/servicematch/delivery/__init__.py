"""The fifth room: lead delivery. The outbox rows routing adds, the worker's loop that claims them
under a lease, sends them through outbound's client and records every attempt, retries, each
endpoint's circuit breaker, what buyers and providers receive, the provider directory with its
admin API and commands, and `servicematch leads show`.

It carries out; it does not decide. Who gets a lead is routing's choice, and routing sits above
delivery and calls it, never the reverse (workers.py, a root, hands the worker its router).
"""
