"""Helpers the console browser tests share: operators made by the CLI, signing in, leads to look at."""

from __future__ import annotations

import importlib.util
import os
import random
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from cli_forks import run_cli
from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "correct horse battery staple 42"
WAIT_SECONDS = 20


def _load_receivers(name: str, folder: str = ""):
    """The backend tests' real local HTTP receivers, shared rather than written twice."""
    if str(ROOT / "backend" / "tests") not in sys.path:  # where they find background_server
        sys.path.insert(0, str(ROOT / "backend" / "tests"))
    path = ROOT / "backend" / "tests" / folder / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


HttpReceiver = _load_receivers("delivery_receivers").HttpReceiver
# A buyer: answers pings on /ping with a set bid, and posts on /post.
BuyerReceiver = _load_receivers("buyer_receivers", "routing").BuyerReceiver


def servicematch_cli(database_url: str, *args: str, stdin: str = "", env: dict[str, str] | None = None) -> str:
    """Run `servicematch ...` against the test server's database (and more of its settings), as an
    operator would: a process of its own (cli_forks.py)."""
    result = run_cli(list(args), stdin=stdin, timeout=60,
                     env={**os.environ, "SERVICEMATCH_DATABASE_URL": database_url, **(env or {})})
    assert result.returncode == 0, f"servicematch {' '.join(args)} failed: {result.stderr or result.stdout}"
    return result.stdout


@dataclass(frozen=True)
class Operators:
    admin: str
    analyst: str
    password: str = PASSWORD


def create_operators(database_url: str) -> Operators:
    """One admin and one analyst with fresh addresses, made through `servicematch operators add`."""
    tag = uuid.uuid4().hex[:8]
    operators = Operators(admin=f"admin-{tag}@example.com", analyst=f"analyst-{tag}@example.com")
    for email, role in ((operators.admin, "admin"), (operators.analyst, "analyst")):
        servicematch_cli(database_url, "operators", "add", "--email", email, "--role", role, "--password-stdin",
                         stdin=PASSWORD + "\n")
    return operators


def sign_in(page: Page, email: str, password: str = PASSWORD, path: str = "/admin") -> None:
    """Sign in through the console's form and wait for the console's navigation."""
    page.goto(path)
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("navigation", name="Console")).to_be_visible()


class ConsoleClient:
    """The console API as a signed-in operator, for setting up and checking what the browser did."""

    def __init__(self, base_url: str, email: str, password: str = PASSWORD) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=20)
        answer = self.http.post("/api/console/session", json={"email": email, "password": password})
        assert answer.status_code == 200, answer.text
        self.csrf = answer.json()["csrfToken"]

    def get(self, path: str, **params) -> dict:
        answer = self.http.get(f"/api/console{path}", params={k: v for k, v in params.items() if v is not None})
        assert answer.status_code == 200, f"{path}: {answer.status_code} {answer.text}"
        return answer.json()

    def send(self, method: str, path: str, body: dict | None = None) -> httpx.Response:
        return self.http.request(method, f"/api/console{path}", json=body, headers={"X-CSRF-Token": self.csrf})

    def close(self) -> None:
        self.http.close()


@contextmanager
def receiving_provider(client: ConsoleClient, receiver, zip_code: str) -> Iterator[dict]:
    """An HVAC provider of one ZIP whose webhook is `receiver`, paused again afterwards (only leads
    from that ZIP reach it, so other tests' leads never do)."""
    answer = client.send("POST", "/providers", {
        "name": f"Receiver {receiver.port}", "email": "receiver@example.com", "webhookUrl": receiver.url,
        "services": ["hvac"], "zips": [zip_code], "terms": "credit",
    })
    assert answer.status_code == 201, answer.text
    provider = answer.json()
    try:
        yield provider
    finally:
        client.send("POST", f"/providers/{provider['id']}/disable")


def submit_lead(base_url: str, *, zip_code: str = "78701", email: str | None = None, subid1: str = "",
                phone: str | None = None) -> str:
    """Store one HVAC lead through the public intake API; returns its requestId.

    Each lead has its own phone number unless one is given: a repeat of phone and service is a
    duplicate, which is not delivered."""
    request_id = f"e2e-console-{uuid.uuid4().hex[:12]}"
    phone = phone or f"512{random.randint(201, 899)}{random.randint(0, 9999):04d}"
    answers = {"cq1": "Install or replace a system", "cq2": "Central air conditioning",
               "cq3": "Single-family home", "cq4": "As soon as possible"}
    body = {
        "pid": 16, "sid": 143, "cid": 640, "istest": "N", "requestId": request_id,
        "consumer": {
            "first": "Maria", "last": "Garcia", "email": email or f"{request_id}@example.com",
            "phone": phone, "address1": "1100 E 5th St", "address2": "", "city": "Austin",
            "state": "TX", "zip": zip_code, "vertical": "services", "category": "HVAC", "source": "website",
            **answers,
        },
        "customquestions": answers,
        "click": {"domain_url": f"{base_url}/services/hvac", "useragent": "console browser test", "subid1": subid1},
    }
    answer = httpx.post(f"{base_url}/api/submit-form", json=body, timeout=20)
    assert answer.status_code == 202, answer.text
    return request_id


def listed_by_server(base_url: str, name: str) -> bool:
    """Whether the server's current marketing-partners list names `name`. A buyer the CLI added
    is on it within seconds (each server process reads the list again), and only from then on
    does a consumer's consent cover it: a lead sent before then is never sold to it."""
    answer = httpx.get(f"{base_url}/api/marketing-partners", timeout=10)
    return answer.status_code == 200 and name in answer.json()["partners"]


def wait_until(check: Callable[[], object], what: str, timeout: float = WAIT_SECONDS):
    """Poll until `check` returns something truthy; the server's worker and event buffer run apart."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def element_at_centre_is(page: Page, locator) -> bool:
    """What a person tapping the control's centre would hit is the control (or inside it)."""
    return locator.evaluate(
        """element => {
            const box = element.getBoundingClientRect()
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
            return hit !== null && (hit === element || element.contains(hit))
        }"""
    )


def no_sideways_overflow(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@dataclass(frozen=True)
class Control:
    """A control as a person sees it: Playwright's visible and enabled, its box in the viewport,
    whether a tap at its centre reaches it, and which of the selectors asked about it is inside."""
    name: str
    visible: bool
    enabled: bool
    box: dict[str, float]
    tappable_at_centre: bool
    inside: dict[str, bool]


# Run in the page over every element a role matched: is_visible(), is_enabled() and
# bounding_box() as Playwright computes them, element_at_centre_is, and closest(selector), after
# scrolling each visible, enabled control into view when asked (as scroll_into_view_if_needed:
# centred, only if it is not in view already).
_CONTROLS = """(elements, { scroll, within }) => {
  const visible = (element) => {
    const style = getComputedStyle(element)
    if (style.display === 'contents') return [...element.children].some(visible)
    if (!element.checkVisibility() || style.visibility !== 'visible') return false
    const box = element.getBoundingClientRect()
    return box.width > 0 && box.height > 0
  }
  const nativelyDisabled = (element) => {
    if (!['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA'].includes(element.tagName)) return false
    if (element.hasAttribute('disabled')) return true
    const fieldset = element.closest('fieldset[disabled]')
    const legend = fieldset?.querySelector(':scope > legend')
    return !!fieldset && !(legend && legend.contains(element))
  }
  const ariaDisabled = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const value = (node.getAttribute('aria-disabled') || '').toLowerCase()
      if (value === 'true' || value === 'false') return value === 'true'
    }
    return false
  }
  return elements.map((element) => {
    const shown = visible(element)
    const enabled = !nativelyDisabled(element) && !ariaDisabled(element)
    if (scroll && shown && enabled) element.scrollIntoViewIfNeeded(true)
    const box = element.getBoundingClientRect()
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
    const label = (element.getAttribute('aria-label') || element.textContent || '').trim().slice(0, 60)
    return {
      name: `${element.tagName.toLowerCase()} "${label}"`, visible: shown, enabled,
      box: { x: box.x, y: box.y, width: box.width, height: box.height },
      tappableAtCentre: hit !== null && (hit === element || element.contains(hit)),
      inside: Object.fromEntries(within.map((selector) => [selector, !!element.closest(selector)])),
    }
  })
}"""


def controls(scope, roles: tuple[str, ...] = ("button", "link"), *, scroll: bool = False,
             within: tuple[str, ...] = ()) -> list[Control]:
    """The controls of `scope` (a page or a region) with these roles, in that order, read in one call
    per role: checking a page's forty controls one call at a time took seconds."""
    found = []
    for role in roles:
        for read in scope.get_by_role(role).evaluate_all(_CONTROLS, {"scroll": scroll, "within": list(within)}):
            found.append(Control(read["name"], read["visible"], read["enabled"], read["box"],
                                 read["tappableAtCentre"], read["inside"]))
    return found


def assert_fits_and_tappable(page: Page, region) -> None:
    """No sideways scrolling, and each button and link of the region in sight and big enough to tap."""
    assert no_sideways_overflow(page), "the page scrolls sideways"
    for control in controls(region, scroll=True):
        if control.visible and control.enabled:
            assert control.tappable_at_centre, f"{control.name} is covered or off-screen"
            assert control.box["height"] >= 40, f"{control.name} is too small to tap"
