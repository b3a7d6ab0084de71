"""Operations endpoints: liveness and database reachability."""
