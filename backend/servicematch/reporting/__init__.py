"""The eighth room: daily counts of leads, deliveries and sales, and providers' charges less their
credits, for the console's dashboard; each closed day is counted once, hourly, by the worker, and
reopened when a sale or a ledger entry for it arrives later. It sits above every room it counts
(intake, events, delivery, privacy, routing) and below the console that reads it.
"""
