"""Helpers the funnel browser tests share: walking a questionnaire the way a visitor does."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import count

import httpx
from playwright.sync_api import BrowserContext, Locator, Page, Response, Route, expect
from playwright.sync_api import Error as PlaywrightError
from sqlalchemy import text

BASE_STEP = 98
PHONE_STEP = 99
# Inside and outside the call centre's hours (9 AM to 6 PM in New York): 10 AM and 7 PM EST.
CALL_CENTRE_OPEN = datetime(2026, 1, 15, 15, 0, tzinfo=UTC)
CALL_CENTRE_CLOSED = datetime(2026, 1, 16, 0, 0, tzinfo=UTC)
_unique = count(1)


@dataclass
class Contact:
    first: str = "Maria"
    last: str = "Garcia"
    email: str = field(default_factory=lambda: f"maria.{next(_unique)}@example.com")
    address1: str = "500 Congress Ave"
    city: str = "Austin"
    state: str = "TX"
    zip: str = "78701"
    phone: str = "5125550142"
    address: str = "500 Congress Ave, Austin, TX 78701"


# The JSON block in which the server hands a page its first API answers (web/document.py).
_INITIAL_DATA = re.compile(r'(<script type="application/json" id="initial-data">)(.*?)(</script>)', re.DOTALL)


def configure_public(page: Page, **config) -> None:
    """Switch public settings (reCAPTCHA site key, pixel id, ...) on in this browser only.

    The app reads its public configuration with the catalogue: from the data block of the page's
    HTML on a first visit, from /api/catalog afterwards. Both are patched.
    """
    def patched_catalog(catalog: dict) -> dict:
        catalog["config"].update(config)
        return catalog

    def catalog_route(route: Route) -> None:
        route.fulfill(json=patched_catalog(route.fetch().json()))

    def document_route(route: Route) -> None:
        if route.request.resource_type != "document":
            route.fallback()
            return
        response = route.fetch()
        html = response.text()

        def patch(match: re.Match) -> str:
            data = json.loads(match.group(2))
            if "/api/catalog" in data:
                data["/api/catalog"] = patched_catalog(data["/api/catalog"])
            body = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
            return match.group(1) + body + match.group(3)

        route.fulfill(response=response, body=_INITIAL_DATA.sub(patch, html, count=1))

    page.route("**/api/catalog", catalog_route)
    page.route("**/*", document_route)


def open_with_state(page: Page, path: str, state: dict) -> None:
    """Arrive at `path` carrying navigation state, as after the form sends the visitor there.

    React Router keeps navigation state in history.state.usr; going back to an entry that carries
    it is how the router sees it, as after a real navigation (pages such as /thank-you send a
    visitor who arrives without it home).
    """
    page.goto("/about-us")
    page.evaluate(
        """([path, state]) => {
            history.pushState({ usr: state, key: 'arrival', idx: 1 }, '', path)
            history.pushState({ usr: null, key: 'after', idx: 2 }, '', '/about-us')
            history.back()
        }""",
        [path, state],
    )


def service_config(base_url: str, slug: str, vertical: str | None = None) -> dict:
    path = f"/api/services/{vertical}/{slug}" if vertical else f"/api/services/{slug}"
    response = httpx.get(base_url + path)
    response.raise_for_status()
    return response.json()


def lead_form_steps(base_url: str, service: dict) -> list[list[dict]]:
    """The fields of each step, as the lead form merges them (spec section 3)."""
    catalog = httpx.get(base_url + "/api/catalog").json()
    base = catalog["site"]["baseFields"] if service["includeBaseFields"] else []
    base_ids = {f["id"] for f in base}
    fields = [*base, *(f for f in service["fields"] if f["id"] not in base_ids)]
    for f in fields:
        f["step"] = f["step"] or PHONE_STEP
    numbers = sorted({f["step"] for f in fields})
    return [[f for f in fields if f["step"] == n] for n in numbers]


def call_flow_steps(service: dict) -> list[list[dict]]:
    fields = [{**f, "step": f["step"] or 1} for f in service["fields"]]
    numbers = sorted({f["step"] for f in fields})
    return [[f for f in fields if f["step"] == n] for n in numbers]


def wait_until_interactive(page: Page) -> None:
    """Wait until React has taken over the page rendered at build time (the page marks the
    document): before that links still work, and fields keep what is typed, but buttons do nothing."""
    page.wait_for_function("() => document.documentElement.dataset.interactive === 'true'")


def is_desktop(page: Page) -> bool:
    """Whether the page is in the desktop layout (Tailwind's lg breakpoint), not the phone one."""
    return (page.viewport_size or {}).get("width", 0) >= 1024


# The heading the server sends for a page the build did not render (web/document.py), which the
# app's first render replaces.
SERVER_SHELL = "#root > main.prerender-hero"


def wait_until_drawn(page: Page, title: Locator | None = None) -> None:
    """Wait until the app has drawn the page: a page the build did not render arrives with the
    server's heading, then shows "Loading…" (no heading, no links) until the app draws it.

    The server's heading can be the very one the app draws next ("Service Not Found"): seeing it
    says nothing until the app has replaced the server's markup.
    """
    title = title or page.get_by_role("heading", level=1)
    expect(page.locator(SERVER_SHELL)).to_have_count(0)
    expect(page.get_by_text("Loading…")).to_have_count(0)
    expect(title.first).to_be_visible()


def expect_step(page: Page, number: int, total: int) -> None:
    expect(page.get_by_text(f"Step {number} of {total}", exact=True)).to_be_visible()
    wait_until_interactive(page)


def first_acceptable(f: dict) -> str:
    return next(option for option in f["options"] if option not in f["disqualifiers"])


def pick_date(page: Page, label: str, year: str, month_name: str, day: str) -> None:
    page.get_by_label(f"{label} Month").select_option(label=month_name)
    page.get_by_label(f"{label} Day").select_option(day)
    page.get_by_label(f"{label} Year").select_option(year)


def fill_field(page: Page, f: dict, contact: Contact) -> None:
    """Answer one field acceptably; radio fields are chosen by the caller (they may advance)."""
    label = f["label"]
    kind = f["type"]
    if kind == "date":
        # A birth date agrees with the age range answer_step chooses (the first acceptable: 50-59).
        birth_date = f.get("mapping") == "dob" or f.get("autoComplete") == "bday"
        pick_date(page, label, str(datetime.now(UTC).year - 55) if birth_date else "1960", "April", "02")
    elif kind == "select":
        value = getattr(contact, f["id"], None) or f["options"][0]
        page.get_by_label(label, exact=True).select_option(value)
    elif kind == "textarea":
        page.get_by_label(re.compile(re.escape(label))).fill("Please call in the afternoon.")
    elif kind in ("text", "email", "tel", "address"):
        value = getattr(contact, f["id"], None)
        if value is None:
            value = {"email": contact.email, "tel": contact.phone}.get(kind, "Sample answer")
        page.get_by_label(label, exact=True).fill(value)
        if kind == "address":
            # Close the suggestion list so it does not cover the buttons below.
            page.get_by_label(label, exact=True).press("Escape")


def answer_step(page: Page, step_fields: list[dict], contact: Contact, *, last: bool) -> None:
    """Answer one step acceptably and move on: radio steps advance on the choice itself."""
    radios = [f for f in step_fields if f["type"] == "radio"]
    for f in step_fields:
        if f["type"] != "radio":
            fill_field(page, f, contact)
    for f in radios:
        page.get_by_role("radio", name=first_acceptable(f), exact=True).click()
    if last:
        page.get_by_role("checkbox").check()
        page.get_by_role("button", name="Submit").click()
    elif not radios:
        page.get_by_role("button", name="Next").click()


def advance_to(page: Page, steps: list[list[dict]], index: int, contact: Contact | None = None) -> None:
    """Answer the steps before `index` (0-based) and wait until that step shows."""
    contact = contact or Contact()
    for number, step_fields in enumerate(steps[:index]):
        expect_step(page, number + 1, len(steps))
        answer_step(page, step_fields, contact, last=False)
    expect_step(page, index + 1, len(steps))


def complete_steps(page: Page, steps: list[list[dict]], contact: Contact, *, screenshot=None,
                   name: str = "") -> None:
    """Walk every step and press Submit."""
    total = len(steps)
    for index, step_fields in enumerate(steps):
        expect_step(page, index + 1, total)
        if screenshot and name:
            kinds = "-".join(sorted({f["type"] for f in step_fields}))
            screenshot(page, f"{name}-step{index + 1}-{kinds}")
        answer_step(page, step_fields, contact, last=index == total - 1)


# The thank-you page's heading once it has said what became of the request: "Success!" when companies
# received it, "We have your request" when nobody did or routing had not finished in time.
RECEIVED, NOT_RECEIVED = "Success!", "We have your request"


# The thank-you page's loader (frontend/src/components/full-screen-loader.tsx), and how long the
# page waits in all for routing to finish (the loader and lead-status.ts's STATUS_GRACE_MS).
LOADER_MS = 4_000
ROUTING_WAIT_SECONDS = 8
_LEAD_STATUS = re.compile(r"/api/leads/([^/]+)/status$")
# The status answers the pages of a context received, by request id (watch_lead_status).
_status_answers: dict[BrowserContext, dict[str, list[Response]]] = {}


def watch_lead_status(context: BrowserContext) -> None:
    """Keep the lead-status answers the pages of `context` receive, for thank_you_heading."""
    answers = _status_answers.setdefault(context, {})

    def keep(response: Response) -> None:
        found = _LEAD_STATUS.search(response.url.split("?")[0])
        if found:
            answers.setdefault(found.group(1), []).append(response)

    context.on("response", keep)


def forget_lead_status(context: BrowserContext) -> None:
    """Drop the answers kept so far (each test's own leads are read in that test)."""
    _status_answers.get(context, {}).clear()


def _routing_finished(page: Page, request_id: str) -> bool:
    for answer in _status_answers.get(page.context, {}).get(request_id, []):
        try:
            if answer.ok and answer.json().get("finished"):
                return True
        except PlaywrightError:  # the body of a page since reloaded is gone; a later answer says the same
            continue
    return False


def _move_past_the_loader(page: Page, heading: Locator, timeout: float) -> None:
    """Where Playwright drives the page's clock (a test marked clock_installed), move it past the
    loader's 4 s as soon as what the page will say is known: once a status answer the page itself
    read says routing has finished (or at once, when the page has no request to ask about). Routing
    keeps the time the page gives it: while it has not finished, nothing is moved."""
    if not page.evaluate("() => Date.isFake === true"):
        return
    loader = page.get_by_text("Processing your answers...")
    expect(loader.or_(heading)).to_be_visible(timeout=timeout)
    if not loader.is_visible():
        return
    request = page.evaluate("() => history.state?.usr ?? null") or {}
    if request.get("requestId") and request.get("statusToken"):
        deadline = time.monotonic() + ROUTING_WAIT_SECONDS
        while not _routing_finished(page, request["requestId"]):
            if time.monotonic() > deadline:
                return
            page.wait_for_timeout(100)
    page.clock.fast_forward(LOADER_MS)


def thank_you_heading(page: Page, timeout: float = 15_000) -> str:
    """The thank-you page's heading, once its loader (4 s, and up to 4 s more while routing decides) is over."""
    heading = page.get_by_role("heading", level=1, name=re.compile(f"^({RECEIVED}|{NOT_RECEIVED})$"))
    _move_past_the_loader(page, heading, timeout)
    expect(heading).to_be_visible(timeout=timeout)
    return heading.inner_text()


def stored_leads(engine, slug: str) -> list[dict]:
    """The stored leads of a service, oldest first, with their JSON columns decoded."""
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT id, flow, vertical, service, cid, answers, click FROM leads WHERE service = :s "
                 "ORDER BY created_at"),
            {"s": slug},
        ).mappings().all()

    def decode(value):
        return json.loads(value) if isinstance(value, str) else value

    return [{**row, "answers": decode(row["answers"]), "click": decode(row["click"])} for row in rows]
