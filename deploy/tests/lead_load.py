"""Leads sent through nginx as visitors send them: each from a client address of its own kind
(127.0.x.y: every 127/8 address reaches this machine's loopback), so the per-address rate limits
and the quality gate's velocity checks see many visitors, as they would in production.

A submission that meets a web process going down (nginx's 503, a reset) is sent again with the
same requestId, as the browser's form does: the server answers a replay with the lead it stored.
"""

from __future__ import annotations

import asyncio
import itertools
import ssl
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

SERVICE_PATH = "/api/services/services/hvac"
RETRIED = {502, 503, 504}
# The pause before each new attempt doubles from the first to the last (about 80 s in all).
FIRST_PAUSE_SECONDS, LAST_PAUSE_SECONDS = 0.5, 5.0
MAX_ATTEMPTS = 20


def client_address(index: int) -> str:
    """The index-th visitor address, 127.0.1.1 onwards (127.0.0.1 is nginx's own)."""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


def lead_body(service: dict, *, request_id: str, number: int) -> dict:
    """A valid form submission whose phone, e-mail and street are the number's own, so no lead is a
    duplicate of another or trips the quality gate's velocity checks."""
    answers = {}
    for question in service["fields"]:
        mapping = question.get("mapping")
        if mapping and mapping.startswith("cq"):
            allowed = [o for o in question.get("options") or [] if o not in (question.get("disqualifiers") or [])]
            answers[mapping] = allowed[0] if allowed else "An answer"
    phone = f"512{420 + number // 10_000}{number % 10_000:04d}"
    consumer = {"first": "Dana", "last": "Rivera", "email": f"dana.rivera.{number}@example.com", "phone": phone,
                "address1": f"{100 + number} Congress Ave", "address2": "", "city": "Austin", "state": "TX",
                "zip": "78701", **service["hiddenParams"], **answers}
    return {"pid": 16, "sid": 143, "cid": service["cid"], "istest": "N", "requestId": request_id,
            "consumer": consumer, "customquestions": answers,
            "click": {"domain_url": "https://www.example.com/services/hvac", "externalid": "", "subid1": "",
                      "subid2": "", "fbclid": "", "fbp": "", "useragent": "deployment test", "ip": "",
                      "trustedform": ""}}


@dataclass
class Sent:
    """What the visitors were answered."""

    accepted: dict[str, float] = field(default_factory=dict)  # requestId -> when its 202 was read
    sources: dict[str, str] = field(default_factory=dict)  # requestId -> the visitor address it came from
    final: Counter = field(default_factory=Counter)  # each lead's last answer (status, or the error's name)
    every_answer: Counter = field(default_factory=Counter)  # every attempt's answer
    retried: int = 0  # attempts after the first


class Visitors:
    """One HTTP client per visitor address, made on first use, with one connection: a visitor's
    leads go one after another on it, as a browser's would (and a TLS handshake is made once)."""

    def __init__(self, base_url: str, tls: ssl.SSLContext | bool) -> None:
        self.base_url, self.tls = base_url, tls
        self.clients: dict[str, httpx.AsyncClient] = {}

    def client(self, address: str) -> httpx.AsyncClient:
        if address not in self.clients:
            transport = httpx.AsyncHTTPTransport(verify=self.tls, local_address=address,
                                                 limits=httpx.Limits(max_connections=1))
            self.clients[address] = httpx.AsyncClient(base_url=self.base_url, transport=transport, timeout=60)
        return self.clients[address]

    async def close(self) -> None:
        await asyncio.gather(*(client.aclose() for client in self.clients.values()))

    async def service(self) -> dict:
        return (await self.client(client_address(0)).get(SERVICE_PATH)).raise_for_status().json()

    async def submit(self, address: str, body: dict, sent: Sent, headers: dict[str, str] | None = None) -> object:
        """POST the lead until it is answered other than by a process going down; its last answer."""
        answer: object = None
        for attempt in range(MAX_ATTEMPTS):
            if attempt:
                sent.retried += 1
                await asyncio.sleep(min(LAST_PAUSE_SECONDS, FIRST_PAUSE_SECONDS * 2 ** (attempt - 1)))
            try:
                answer = (await self.client(address).post("/api/submit-form", json=body, headers=headers)).status_code
            except httpx.TransportError as error:
                answer = type(error).__name__
            sent.every_answer[answer] += 1
            if answer not in RETRIED and not isinstance(answer, str):
                break
        sent.final[answer] += 1
        if answer == 202:
            sent.accepted[body["requestId"]] = time.time()
            sent.sources[body["requestId"]] = address
        return answer


async def send_leads(visitors: Visitors, service: dict, *, count: int, rate: float, first_number: int = 0,
                     leads_per_address: int = 2, address_offset: int = 0,
                     at_half: Callable[[], None] | None = None) -> Sent:
    """`count` leads at `rate` a second on a fixed schedule (a slow answer does not delay the next);
    `at_half` runs once half of them have been sent."""
    sent, tasks, start = Sent(), set(), time.perf_counter()
    for i in range(count):
        if (pause := start + i / rate - time.perf_counter()) > 0:
            await asyncio.sleep(pause)
        if at_half is not None and i == count // 2:
            at_half()
        number = first_number + i
        body = lead_body(service, request_id=str(uuid.uuid4()), number=number)
        task = asyncio.create_task(visitors.submit(client_address(address_offset + i // leads_per_address), body, sent))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    while tasks:
        await asyncio.gather(*list(tasks))
    return sent


async def send_as_answered(visitors: Visitors, service: dict, *, concurrency: int, seconds: float,
                           first_number: int = 0, leads_per_address: int = 2, address_offset: int = 0) -> Sent:
    """`concurrency` visitors at once, each sending its next lead as soon as the last is answered,
    for `seconds`: the most leads a second the server takes. Each visitor moves to an address of
    its own every `leads_per_address` leads."""
    sent, numbers, deadline = Sent(), iter(range(first_number, first_number + 10_000_000)), time.monotonic() + seconds

    async def visitor(index: int) -> None:
        for count in itertools.count():
            if time.monotonic() >= deadline:
                return
            address = client_address(address_offset + index + concurrency * (count // leads_per_address))
            body = lead_body(service, request_id=str(uuid.uuid4()), number=next(numbers))
            await visitors.submit(address, body, sent)

    await asyncio.gather(*(visitor(index) for index in range(concurrency)))
    return sent
