"""The first room: the service catalogue (categories, services and their questionnaires), read
from catalog/ and cross-checked once at start-up, and its read-only API. Every later room that
asks what a service is or which answers it takes reads it from here.
"""
