"""Operations: GET /api/health (liveness), GET /api/ready (readiness: the database answers and is
migrated; the workers' heartbeats), /metrics (Prometheus, for the allowed addresses), Sentry set-up
and scrubbing, `servicematch keys` and `servicematch backup`. It sits near the top: it reads every
room's tables, and nothing depends on it.
"""
