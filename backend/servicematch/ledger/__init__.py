"""One ledger for every account that pays: buyers and providers alike. Accounts with their terms
(prepaid or credit), entries that are only ever added (a charge, a credit, a return, a payment, a
refund, an adjustment, a reversal), payments (by card through Stripe, or recorded by an operator),
monthly invoices, and the reconciliation that proves every balance.

A room below routing: routing asks it "can this account pay?" and posts each sale's charge in the
transaction that records the sale; the ledger never asks routing anything. It knows accounts by
their kind and their owner's id, not by the buyers' or providers' tables.
"""
