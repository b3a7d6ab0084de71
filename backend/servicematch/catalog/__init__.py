"""The service catalogue: categories, services and their questionnaires, read from catalog/."""
