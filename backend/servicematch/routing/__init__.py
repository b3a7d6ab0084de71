"""Who gets a lead: buyers and their filters, the ping-post auction, provider matching, caps,
budgets, and the choice of recipients (never more than three companies). Run by the worker,
after intake has committed the lead; delivery sends what routing decided."""
