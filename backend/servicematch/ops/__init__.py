"""Operations support: the baseline endpoint the throughput benchmark compares against."""
