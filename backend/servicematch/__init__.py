"""ServiceMatch: a lead-generation marketplace for US local services.

The packages form one order, bottom to top, and each imports only those before it: plumbing
(kernel, outbound, settings, errors, terminal, mail, db, deps, inbound), which knows nothing of
leads; the rooms, in the order a lead meets them (catalog, address, intake, events, delivery,
privacy, routing, reporting, access, portal, console, ops, security); then the composition roots
(app, cli, workers, worker_process, devserver, web, schema, api_schema), which put the rooms
together and which no room imports. The README's "Layout" lists them, and
backend/tests/kernel/test_package_arrows.py holds the code to it.
"""
