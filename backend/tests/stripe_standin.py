"""A local stand-in for Stripe: a real HTTP server that answers the few calls ServiceMatch makes
(ledger/stripe_gateway.py) and sends correctly signed events to the app's webhook, so no test ever
calls Stripe.

    standin = StripeStandIn().start()              # settings: stripe_api_base=standin.api_base,
                                                   # stripe_webhook_secret=WEBHOOK_SECRET
    standin.deliver_to(client)                     # a TestClient, or the served app's origin
    url = ...POST /api/buyer/funds/checkout...     # the Checkout session's url: standin's own pay page
    standin.pay(session_id)                        # the card holder pays: signed events to the webhook

Answered: POST /v1/checkout/sessions (a session whose url is the stand-in's pay page), POST
/v1/payment_intents (an off-session charge: succeeded, processing or declined; its event queued until
`send_queued()`, as Stripe sends it after answering), POST
/v1/payment_methods/{id}/detach. GET /pay/{id} is a page with a Pay button (for the browser test);
pressing it sends the events and redirects to the session's success_url, as Checkout does. Every
request is kept in `calls`; a repeated Idempotency-Key gets its first answer again, as at Stripe.
"""

from __future__ import annotations

import html
import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

import httpx
from background_server import serve_in_background
from delivery_receivers import free_port

WEBHOOK_SECRET = "whsec_standin_test_secret_0123456789abcdef"
SECRET_KEY = "sk_test_standin_0123456789"
WEBHOOK_PATH = "/api/payments/stripe/webhook"


def new_id(prefix: str) -> str:
    return f"{prefix}_test_{secrets.token_hex(8)}"


def signature_header(payload: str, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> str:
    """Stripe-Signature as Stripe writes it: t=<unix time>,v1=HMAC-SHA256(secret, "<t>.<payload>")."""
    import hashlib
    import hmac

    moment = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode(), f"{moment}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={moment},v1={mac}"


def form_to_dict(pairs: list[tuple[str, str]]) -> dict:
    """Stripe's form encoding (`metadata[a]=1`, `line_items[0][quantity]=1`) back to nested data."""
    root: dict = {}
    for key, value in pairs:
        path = key.replace("]", "").split("[")
        node = root
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = value
    return _lists(root)


def _lists(node):
    if not isinstance(node, dict):
        return node
    if node and all(key.isdigit() for key in node):
        return [_lists(node[key]) for key in sorted(node, key=int)]
    return {key: _lists(value) for key, value in node.items()}


@dataclass
class StripeStandIn:
    webhook_secret: str = WEBHOOK_SECRET
    # Off-session charges refused as a card would refuse them.
    decline_topups: bool = False
    # Off-session charges answered "processing": only their event says how they went.
    topups_processing: bool = False
    # Events Stripe would send after answering an off-session charge, until send_queued().
    queued: list[tuple[str, dict]] = field(default_factory=list)
    sessions: dict[str, dict] = field(default_factory=dict)
    intents: dict[str, dict] = field(default_factory=dict)
    calls: list[tuple[str, str, dict]] = field(default_factory=list)
    # What the webhook answered each event sent: (event type, status, body).
    delivered: list[tuple[str, int, dict]] = field(default_factory=list)
    port: int = field(default_factory=free_port)
    _deliver: Callable[[bytes, dict], tuple[int, dict]] | None = None
    _answers: dict[str, tuple[int, dict]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def deliver_to(self, target) -> StripeStandIn:
        """Where events go: a TestClient (its app's webhook) or an origin ("http://127.0.0.1:8000")."""
        if isinstance(target, str):
            def deliver(body: bytes, headers: dict) -> tuple[int, dict]:
                answer = httpx.post(f"{target.rstrip('/')}{WEBHOOK_PATH}", content=body, headers=headers, timeout=10)
                return answer.status_code, answer.json() if answer.content else {}
        else:
            def deliver(body: bytes, headers: dict) -> tuple[int, dict]:
                answer = target.post(WEBHOOK_PATH, content=body, headers=headers)
                return answer.status_code, answer.json() if answer.content else {}
        self._deliver = deliver
        return self

    # -- events ---------------------------------------------------------------------------------------

    def event(self, kind: str, thing: dict, *, event_id: str | None = None) -> str:
        return json.dumps({"id": event_id or new_id("evt"), "object": "event", "api_version": "2026-10-28",
                           "created": int(time.time()), "livemode": False, "type": kind, "data": {"object": thing}})

    def send_raw(self, payload: str, signature: str | None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if signature is not None:
            headers["Stripe-Signature"] = signature
        assert self._deliver is not None, "deliver_to(client or origin) first"
        status, body = self._deliver(payload.encode(), headers)
        try:
            kind = json.loads(payload).get("type", "")
        except (ValueError, AttributeError):
            kind = ""
        self.delivered.append((kind, status, body))
        return status, body

    def send(self, kind: str, thing: dict, *, event_id: str | None = None, secret: str | None = None
             ) -> tuple[int, dict]:
        """One event, signed as Stripe signs it (with `secret` instead: a forgery)."""
        payload = self.event(kind, thing, event_id=event_id)
        return self.send_raw(payload, signature_header(payload, secret or self.webhook_secret))

    def pay(self, session_id: str, *, card: str | None = None) -> list[tuple[int, dict]]:
        """The card holder pays the Checkout session: its PaymentIntent succeeds, the session completes
        (both events, signed, in Stripe's usual order)."""
        with self._lock:
            session = self.sessions[session_id]
            intent = self._checkout_intent(session, card or new_id("pm"))
            session.update(status="complete", payment_status="paid", payment_intent=intent["id"])
        return [self.send("payment_intent.succeeded", intent), self.send("checkout.session.completed", session)]

    def fail(self, session_id: str) -> tuple[int, dict]:
        """A slow payment method that failed after Checkout closed."""
        return self.send("checkout.session.async_payment_failed", self.sessions[session_id])

    def _checkout_intent(self, session: dict, card: str) -> dict:
        data = session.get("payment_intent_data") or {}
        saving = data.get("setup_future_usage") == "off_session"
        if saving and not session.get("customer"):
            session["customer"] = new_id("cus")
        intent = {"id": new_id("pi"), "object": "payment_intent", "status": "succeeded",
                  "amount": session["amount_total"], "amount_received": session["amount_total"],
                  "currency": session["currency"], "customer": session.get("customer"), "payment_method": card,
                  "setup_future_usage": "off_session" if saving else None, "metadata": data.get("metadata") or {}}
        self.intents[intent["id"]] = intent
        return intent

    # -- the API ------------------------------------------------------------------------------------

    def _create_session(self, form: dict) -> tuple[int, dict]:
        item = form["line_items"][0]
        session_id = new_id("cs")
        session = {"id": session_id, "object": "checkout.session", "mode": form.get("mode"), "status": "open",
                   "payment_status": "unpaid", "amount_total": int(item["price_data"]["unit_amount"]) * int(
                       item.get("quantity", 1)), "currency": item["price_data"]["currency"],
                   "customer": form.get("customer"), "client_reference_id": form.get("client_reference_id"),
                   "metadata": form.get("metadata") or {}, "payment_intent": None,
                   "payment_intent_data": form.get("payment_intent_data") or {},
                   "success_url": form["success_url"], "cancel_url": form["cancel_url"],
                   "url": f"{self.api_base}/pay/{session_id}"}
        self.sessions[session_id] = session
        return 200, session

    def _create_intent(self, form: dict) -> tuple[int, dict]:
        intent = {"id": new_id("pi"), "object": "payment_intent", "amount": int(form["amount"]),
                  "currency": form["currency"], "customer": form.get("customer"),
                  "payment_method": form.get("payment_method"), "metadata": form.get("metadata") or {},
                  "status": "processing" if self.topups_processing else "succeeded", "amount_received": 0}
        if self.decline_topups:
            intent.update(status="requires_payment_method", last_payment_error={
                "code": "card_declined", "message": "Your card has insufficient funds."})
            self.intents[intent["id"]] = intent
            self.queued.append(("payment_intent.payment_failed", dict(intent)))
            return 402, {"error": {"type": "card_error", "code": "card_declined", "decline_code": "insufficient_funds",
                                   "message": "Your card has insufficient funds.", "payment_intent": intent}}
        if intent["status"] == "succeeded":
            intent["amount_received"] = intent["amount"]
        self.intents[intent["id"]] = intent
        if intent["status"] == "succeeded":
            self.queued.append(("payment_intent.succeeded", dict(intent)))
        return 200, intent

    def settle_processing(self, intent_id: str, *, succeeded: bool = True) -> None:
        """A "processing" charge comes to an end: its event is queued."""
        intent = self.intents[intent_id]
        if succeeded:
            intent.update(status="succeeded", amount_received=intent["amount"])
            self.queued.append(("payment_intent.succeeded", dict(intent)))
        else:
            intent.update(status="requires_payment_method", last_payment_error={"message": "Your card was declined."})
            self.queued.append(("payment_intent.payment_failed", dict(intent)))

    def send_queued(self) -> list[tuple[int, dict]]:
        """Send the events Stripe would have sent after the calls so far."""
        with self._lock:
            waiting, self.queued = self.queued, []
        return [self.send(kind, thing) for kind, thing in waiting]

    def answer(self, method: str, path: str, form: dict, idempotency_key: str | None) -> tuple[int, dict]:
        with self._lock:
            self.calls.append((method, path, form))
            if idempotency_key and idempotency_key in self._answers:
                return self._answers[idempotency_key]
            if method == "POST" and path == "/v1/checkout/sessions":
                found = self._create_session(form)
            elif method == "POST" and path == "/v1/payment_intents":
                found = self._create_intent(form)
            elif method == "POST" and path.startswith("/v1/payment_methods/") and path.endswith("/detach"):
                found = 200, {"id": path.split("/")[3], "object": "payment_method", "customer": None}
            else:
                found = 404, {"error": {"type": "invalid_request_error", "message": f"No such route {path}"}}
            if idempotency_key:
                self._answers[idempotency_key] = found
            return found

    def start(self) -> StripeStandIn:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def _form(self) -> dict:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
                return form_to_dict(parse_qsl(raw, keep_blank_values=True))

            def _send(self, status: int, body: bytes, content_type: str, location: str | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                if location:
                    self.send_header("Location", location)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                path = urlsplit(self.path).path
                if path.startswith("/pay/") and path[5:] in standin.sessions:
                    self._send(200, _pay_page(standin.sessions[path[5:]]).encode(), "text/html; charset=utf-8")
                    return
                status, body = standin.answer("GET", path, {}, None)
                self._send(status, json.dumps(body).encode(), "application/json")

            def do_POST(self) -> None:
                path, form = urlsplit(self.path).path, self._form()
                if path.startswith("/pay/") and path[5:] in standin.sessions:
                    standin.pay(path[5:])
                    self._send(303, b"", "text/plain", location=standin.sessions[path[5:]]["success_url"])
                    return
                status, body = standin.answer("POST", path, form, self.headers.get("Idempotency-Key"))
                self._send(status, json.dumps(body).encode(), "application/json")

            def log_message(self, *_args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        serve_in_background(self._server)
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _pay_page(session: dict) -> str:
    dollars = f"${session['amount_total'] / 100:,.2f}"
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Pay {dollars}</title>"
            "<meta name='viewport' content='width=device-width'></head><body style='font-family:sans-serif'>"
            f"<h1>Test checkout</h1><p>Amount: <strong>{html.escape(dollars)}</strong></p>"
            f"<form method='post' action='/pay/{html.escape(session['id'])}'><button type='submit'>Pay {dollars}"
            "</button></form></body></html>")


def main() -> None:
    """For development: `python backend/tests/stripe_standin.py [--port 12111] [--app http://127.0.0.1:8000]`,
    then run the server with SERVICEMATCH_STRIPE_API_BASE=http://127.0.0.1:12111 and the stand-in's
    SERVICEMATCH_STRIPE_SECRET_KEY and SERVICEMATCH_STRIPE_WEBHOOK_SECRET (printed here)."""
    import argparse

    parser = argparse.ArgumentParser(description="A local stand-in for Stripe's Checkout and webhooks.")
    parser.add_argument("--port", type=int, default=12111)
    parser.add_argument("--app", default="http://127.0.0.1:8000", help="the ServiceMatch server events go to")
    args = parser.parse_args()
    standin = StripeStandIn(port=args.port).start().deliver_to(args.app)
    print(f"SERVICEMATCH_STRIPE_API_BASE={standin.api_base}\nSERVICEMATCH_STRIPE_SECRET_KEY={SECRET_KEY}\n"
          f"SERVICEMATCH_STRIPE_WEBHOOK_SECRET={WEBHOOK_SECRET}\nevents go to {args.app}{WEBHOOK_PATH}; Ctrl-C stops")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        standin.stop()


if __name__ == "__main__":
    main()
