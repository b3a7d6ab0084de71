"""The buyer portal (/buyer) and the buyers' API (/api/buyer/v1): a buyer's people and keys, the
leads it bought with their consent proof, its settings, returns and feedback.

A room above routing, reporting, access and the provider portal; the console sits above it.
"""
