"""Mail fixtures: the real SMTP receiver the delivery tests use."""

from __future__ import annotations

import sys
from pathlib import Path

# One real SMTP server for every test package (backend/tests/delivery/delivery_receivers.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "delivery"))
