"""N local buyers on one port, for bench/auction_load.py: a process of its own that costs little CPU.

Plain asyncio streams and a minimal HTTP/1.1 parser (request line, headers, a Content-Length
body, connections kept alive), so the buyers take a sliver of a core even at 100 leads a second
with 20 bidders, and the CPU left to the server and its workers is not spent answering them.

    POST /b{n}/ping   answered after a random 0-100 ms with a random bid of $5-$50
    POST /b{n}/post   answered 200 at once; noted: requestId, buyer, arrival (time.time()),
                      createdAt from the body, how many times that requestId came
    GET  /count       {"posts": distinct requestIds, "repeats": extra copies, "pings": n}
    GET  /results     every note, as JSON
    GET  /log         every post, per requestId: [buyer, arrival, webhook-id, status answered, the
                      body's "type" (a notice) or null (the lead itself)]
    POST /reset       forget every note

Each buyer behaves as `--behaviours` says (comma-separated, buyer 0 first; buyers not named are
fast), for bench/auction_kills.py, which kills the worker under load; notices (bodies with a
"type") are answered 200 at once by all:

    fast     the above
    refuse   bids --high-bid at once, answers every post 400 (leads fall through to the next bid)
    late     bids --high-bid + 1, but only after --late-ms (past the ping deadline: it never wins)
    doubt    answers its first post of each lead 503 and later ones 200 (a post in doubt)
    slow     answers its first post of each lead after --slow-ms (past the post deadline), later
             ones at once; both 200

    python bench/load_buyers.py --port 8123 --buyers 20
    python bench/load_buyers.py --port 8123 --buyers 8 --behaviours fast,fast,fast,fast,refuse,late,doubt,slow
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import time
from datetime import datetime

PING_DELAY_MS = (0, 100)
BID_DOLLARS = (5.0, 50.0)
BUYER_PATH = re.compile(r"^/b(\d+)/(ping|post)$")
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 503: "Service Unavailable"}
BEHAVIOURS = ("fast", "refuse", "late", "doubt", "slow")


class Notes:
    def __init__(self, buyers: int, behaviours: list[str] | None = None, *, high_bid: float = 99.0,
                 late_ms: float = 1500.0, slow_ms: float = 4000.0) -> None:
        self.buyers = buyers
        self.behaviours = (list(behaviours or []) + ["fast"] * buyers)[:buyers]
        self.high_bid, self.late_ms, self.slow_ms = high_bid, late_ms, slow_ms
        self.posts: dict[str, dict] = {}  # requestId -> {"buyer", "at", "created", "count"}
        self.log: dict[str, list[list]] = {}  # requestId -> [[buyer, at, webhook-id, status, type]]
        self.pings = 0
        self.other_posts = 0  # bodies without a requestId (notices sent to a post URL)

    def reset(self) -> None:
        self.posts.clear()
        self.log.clear()
        self.pings = self.other_posts = 0

    async def bid(self, buyer: int) -> dict:
        behaviour = self.behaviours[buyer]
        if behaviour == "refuse":
            return {"bid": self.high_bid}
        if behaviour == "late":
            await asyncio.sleep(self.late_ms / 1000)
            return {"bid": self.high_bid + 1}
        await asyncio.sleep(random.uniform(*PING_DELAY_MS) / 1000)
        return {"bid": round(random.uniform(*BID_DOLLARS), 2)}

    async def take_post(self, buyer: int, headers: dict[str, str], body: bytes) -> int:
        """Note the post (the lead, or a notice about it) and answer it as the buyer's behaviour says.
        The answer is noted when decided: a buyer that answers 200 believes it bought the lead, even
        if the sender stopped listening before the answer came."""
        arrived = time.time()
        try:
            payload = json.loads(body)
        except ValueError:
            payload = None
        payload = payload if isinstance(payload, dict) else {}
        notice = payload.get("type")
        data = payload.get("data")
        request_id = payload.get("requestId") or (data.get("requestId") if isinstance(data, dict) else None)
        behaviour, entries = self.behaviours[buyer], self.log.setdefault(str(request_id), [])
        first = notice is None and not any(e[0] == buyer and e[4] is None for e in entries)
        status, pause = 200, 0.0
        if notice is None and behaviour == "refuse":
            status = 400
        elif notice is None and behaviour == "doubt" and first:
            status = 503
        elif notice is None and behaviour == "slow" and first:
            pause = self.slow_ms / 1000
        entries.append([buyer, arrived, headers.get("webhook-id"), status, notice])
        self.note_post(buyer, body)
        await asyncio.sleep(pause)
        return status

    def count(self) -> dict:
        repeats = sum(note["count"] - 1 for note in self.posts.values())
        return {"posts": len(self.posts), "repeats": repeats, "pings": self.pings, "other_posts": self.other_posts}

    def note_post(self, buyer: int, body: bytes) -> None:
        arrived = time.time()
        try:
            payload = json.loads(body)
            request_id = payload["requestId"]
            created = datetime.fromisoformat(payload["createdAt"]).timestamp()
        except (ValueError, KeyError, TypeError):
            self.other_posts += 1
            return
        note = self.posts.get(request_id)
        if note is None:
            self.posts[request_id] = {"buyer": buyer, "at": arrived, "created": created, "count": 1}
        else:
            note["count"] += 1


async def read_request(reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str], bytes] | None:
    """(method, path, headers, body) of the next request on the connection, None when it closed."""
    line = await reader.readline()
    if not line:
        return None
    method, target, _version = line.decode("latin-1").split(" ", 2)
    headers = {}
    while (header := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = header.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0") or 0))
    return method, target.split("?", 1)[0], headers, body


def response(status: int, body: bytes, *, close: bool) -> bytes:
    head = (f"HTTP/1.1 {status} {REASONS.get(status, 'Status')}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: {'close' if close else 'keep-alive'}\r\n\r\n")
    return head.encode("latin-1") + body


async def answer(notes: Notes, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, bytes]:
    if match := BUYER_PATH.match(path):
        buyer, kind = int(match[1]), match[2]
        if method != "POST" or buyer >= notes.buyers:
            return 404, b"{}"
        if kind == "ping":
            notes.pings += 1
            return 200, json.dumps(await notes.bid(buyer)).encode()
        return await notes.take_post(buyer, headers, body), b"{}"
    if path == "/count" and method == "GET":
        return 200, json.dumps(notes.count()).encode()
    if path == "/results" and method == "GET":
        return 200, json.dumps({**notes.count(), "notes": notes.posts}).encode()
    if path == "/log" and method == "GET":
        return 200, json.dumps(notes.log).encode()
    if path == "/reset" and method == "POST":
        notes.reset()
        return 200, b"{}"
    return 404, b"{}"


async def serve_connection(notes: Notes, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while request := await read_request(reader):
            method, path, headers, body = request
            status, content = await answer(notes, method, path, headers, body)
            close = headers.get("connection", "").lower() == "close"
            writer.write(response(status, content, close=close))
            await writer.drain()
            if close:
                break
    except (asyncio.IncompleteReadError, ConnectionError, ValueError):
        pass  # the caller gave up (a ping past its deadline) or sent something this parser does not take
    finally:
        writer.close()


async def main(port: int, notes: Notes) -> None:
    server = await asyncio.start_server(lambda r, w: serve_connection(notes, r, w), "127.0.0.1", port,
                                        backlog=1024)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--buyers", type=int, default=10)
    parser.add_argument("--behaviours", default="", help=f"per buyer, comma-separated: {', '.join(BEHAVIOURS)}")
    parser.add_argument("--high-bid", type=float, default=99.0, help="dollars, of the refusing and late buyers")
    parser.add_argument("--late-ms", type=float, default=1500.0, help="when the late buyer answers its pings")
    parser.add_argument("--slow-ms", type=float, default=4000.0, help="when the slow buyer answers a first post")
    args = parser.parse_args()
    chosen = [part.strip() for part in args.behaviours.split(",") if part.strip()]
    if unknown := sorted(set(chosen) - set(BEHAVIOURS)):
        parser.error(f"unknown behaviours: {', '.join(unknown)}")
    try:
        asyncio.run(main(args.port, Notes(args.buyers, chosen, high_bid=args.high_bid, late_ms=args.late_ms,
                                          slow_ms=args.slow_ms)))
    except KeyboardInterrupt:
        pass
