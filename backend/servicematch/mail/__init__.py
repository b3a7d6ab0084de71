"""Mail to people: one way to send a message, by SMTP or into the local mailbox."""
