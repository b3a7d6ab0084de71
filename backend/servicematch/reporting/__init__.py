"""Daily counts of leads and deliveries for the console's dashboard."""
