"""ServiceMatch: a lead-generation marketplace for US local services."""
