"""The twelfth room: operations endpoints, GET /api/health (the process answers and its database
accepts a query). It needs only deps; it sits near the top because nothing depends on it.
"""
