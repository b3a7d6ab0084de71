"""The quality gate: what routing judges of a lead before any buyer or provider sees it (docs/quality.md)."""
