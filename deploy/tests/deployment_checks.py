"""What the deployment test reads back: nginx's access log, a scrape of /metrics, the database and
the buyers' own notes (bench/load_buyers.py)."""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
from prometheus_client.parser import text_string_to_metric_families

# deploy/nginx/servicematch.conf's log_format servicematch.
ACCESS_LINE = re.compile(r'^(?P<client>\S+) \[[^\]]*\] "(?P<request>[^"]*)" (?P<status>\d{3}) \d+ \S+ '
                         r'"(?P<upstream>[^"]*)" \S+ (?P<request_id>[0-9a-f]{32})$')


@dataclass(frozen=True)
class Logged:
    client: str
    request: str
    status: int
    upstream: str
    request_id: str


def access_log(path: Path, *, waiting_for: frozenset[str] | set[str] = frozenset(),
               seconds: float = 10.0) -> dict[str, Logged]:
    """nginx's access log lines by request id, once every id in `waiting_for` is there (nginx writes
    a line as it finishes a request, which can be just after the client has read the answer)."""
    deadline = time.monotonic() + seconds
    while not (waiting_for <= (lines := _read_access_log(path)).keys()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return lines


def _read_access_log(path: Path) -> dict[str, Logged]:
    lines = {}
    for raw in path.read_text().splitlines():
        if match := ACCESS_LINE.match(raw):
            lines[match["request_id"]] = Logged(match["client"], match["request"], int(match["status"]),
                                                match["upstream"], match["request_id"])
    return lines


def scrape(url: str) -> dict[tuple[str, tuple], float]:
    """GET url/metrics: (sample name, sorted labels) -> value."""
    answer = httpx.get(f"{url}/metrics", timeout=30)
    answer.raise_for_status()
    samples = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def leads_counted(samples: dict[tuple[str, tuple], float], outcome: str) -> float:
    return samples.get(("servicematch_leads_total", (("outcome", outcome),)), 0.0)


def plain_url(database_url: str) -> str:
    return database_url.replace("postgresql+psycopg://", "postgresql://", 1)


def open_work(database_url: str) -> tuple[int, int]:
    """(leads whose auction is missing or open, buyer posts and consent receipts still pending)."""
    with psycopg.connect(plain_url(database_url)) as connection:
        open_leads = connection.execute(
            "SELECT count(*) FROM leads l LEFT JOIN auctions a ON a.lead_id = l.id WHERE a.closed_at IS NULL"
        ).fetchone()[0]
        pending = connection.execute(
            "SELECT count(*) FROM deliveries WHERE kind IN ('buyer_post', 'consumer_email') AND status = 'pending'"
        ).fetchone()[0]
    return open_leads, pending


def drained(database_url: str, seconds: float) -> float | None:
    """Seconds until every auction is closed and no buyer post or receipt is pending; None if not
    within `seconds` (leads a killed worker had claimed wait out their 30-second routing lease, posts
    and mail it was sending their delivery lease)."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if open_work(database_url) == (0, 0):
            return time.monotonic() - start
        time.sleep(1.0)
    return None


@dataclass
class Stored:
    leads: Counter  # requestId -> rows
    client_addresses: dict[str, str]  # requestId -> the address its consent record keeps
    sales: Counter  # requestId -> sales
    closed: set[str]  # requestIds whose auction closed
    receipts: Counter  # the consent receipts' statuses (sent through the SMTP server)


def stored(database_url: str, request_ids: set[str]) -> Stored:
    with psycopg.connect(plain_url(database_url)) as connection:
        rows = connection.execute(
            "SELECT l.request_id, c.ip_address FROM leads l LEFT JOIN consent_records c ON c.lead_id = l.id "
            "WHERE l.request_id = ANY(%s)", (list(request_ids),)).fetchall()
        sales = connection.execute(
            "SELECT l.request_id FROM sales s JOIN leads l ON l.id = s.lead_id WHERE l.request_id = ANY(%s)",
            (list(request_ids),)).fetchall()
        closed = connection.execute(
            "SELECT l.request_id FROM auctions a JOIN leads l ON l.id = a.lead_id "
            "WHERE a.closed_at IS NOT NULL AND l.request_id = ANY(%s)", (list(request_ids),)).fetchall()
        receipts = connection.execute(
            "SELECT d.status FROM deliveries d JOIN leads l ON l.id = d.lead_id "
            "WHERE d.kind = 'consumer_email' AND l.request_id = ANY(%s)", (list(request_ids),)).fetchall()
    return Stored(leads=Counter(r for r, _ in rows), client_addresses={r: ip for r, ip in rows},
                  sales=Counter(r for (r,) in sales), closed={r for (r,) in closed},
                  receipts=Counter(status for (status,) in receipts))


def buyers_who_took(buyers_url: str, request_ids: set[str]) -> dict[str, set[int]]:
    """requestId -> the buyers that answered 200 to the lead itself (not a notice), by their own notes."""
    log = httpx.get(f"{buyers_url}/log", timeout=30).json()
    took: dict[str, set[int]] = defaultdict(set)
    for request_id, entries in log.items():
        if request_id in request_ids:
            for buyer, _at, _webhook_id, status, notice in entries:
                if notice is None and 200 <= status < 300:
                    took[request_id].add(buyer)
    return took


def open_work_detail(database_url: str, most: int = 10) -> str:
    """Why work is still open, for a failure's message: the unclosed auctions' events and posts, and
    the pending receipts' last errors."""
    with psycopg.connect(plain_url(database_url)) as connection:
        events = connection.execute(
            "SELECT l.request_id, e.attempts, e.claimed_until, e.done_at, a.lead_id IS NOT NULL "
            "FROM leads l JOIN lead_events e ON e.lead_id = l.id LEFT JOIN auctions a ON a.lead_id = l.id "
            "WHERE a.closed_at IS NULL ORDER BY l.created_at LIMIT %s", (most,)).fetchall()
        pending = connection.execute(
            "SELECT d.kind, d.attempt_count, d.next_attempt_at, d.claimed_until, d.last_error FROM deliveries d "
            "WHERE d.kind IN ('buyer_post', 'consumer_email') AND d.status = 'pending' "
            "ORDER BY d.created_at LIMIT %s", (most,)).fetchall()
        now = connection.execute("SELECT now()").fetchone()[0]
    heading = (f"database time {now:%H:%M:%S}; unclosed auctions (request id, routing attempts, claimed until, "
               "routed at, auction row):")
    pending_heading = "pending posts and receipts (kind, attempts, next attempt, claimed until, last error):"
    return "\n".join([heading, *(f"  {row}" for row in events), pending_heading, *(f"  {row}" for row in pending)])
