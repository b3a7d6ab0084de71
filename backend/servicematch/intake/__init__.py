"""Lead intake: validation, server-side re-checking and durable storage with consent evidence."""
