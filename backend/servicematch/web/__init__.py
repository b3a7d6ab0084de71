"""Serving the built React site: hashed assets, public files, and index.html for every route."""
