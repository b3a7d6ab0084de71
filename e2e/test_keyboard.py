"""Keyboard-only use: a whole lead form without a click, visible focus, labels, announced errors."""

from __future__ import annotations

import pytest
from funnel_steps import (
    Contact,
    advance_to,
    answer_step,
    call_flow_steps,
    expect_step,
    first_acceptable,
    lead_form_steps,
    service_config,
    stored_leads,
    thank_you_heading,
)
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

# More Tab presses than any screen has stops before the element sought: a missing stop fails fast.
MAX_TABS = 80

HAS_FOCUS_INDICATOR = """el => {
  const shows = (node) => {
    const style = getComputedStyle(node)
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
    return outline || style.boxShadow !== 'none'
  }
  // A radio's ring is drawn on the label that wraps it, the whole tappable row.
  return shows(el) || (el.type === 'radio' && !!el.closest('label') && shows(el.closest('label')))
}"""

FOCUSED_DESCRIPTION = """() => {
  const el = document.activeElement
  return el ? `${el.tagName.toLowerCase()} ${el.getAttribute('type') || ''} ${(el.textContent || el.name || '')
    .trim().slice(0, 40)}` : 'nothing'
}"""

UNLABELLED_CONTROLS = """() => [...document.querySelectorAll('input, select, textarea')]
  .filter((el) => el.type !== 'hidden' && el.getClientRects().length > 0)
  .filter((el) => el.labels.length === 0 && !el.getAttribute('aria-labelledby'))
  .map((el) => el.outerHTML.slice(0, 120))"""


def is_focused(locator: Locator) -> bool:
    return locator.evaluate("el => el === document.activeElement")


def tab_to(page: Page, target: Locator, *, backwards: bool = False) -> None:
    """Press Tab (or Shift+Tab) until the target has focus, as a keyboard user moves through the page."""
    key = "Shift+Tab" if backwards else "Tab"
    for _ in range(MAX_TABS):
        if target.count() == 1 and is_focused(target):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {target}; focus is on {page.evaluate(FOCUSED_DESCRIPTION)}")


def type_into(page: Page, target: Locator, text: str) -> None:
    tab_to(page, target)
    page.keyboard.type(text)


def choose_radio_by_keyboard(page: Page, field: dict) -> None:
    """Tab into the group; Space picks the first option, or the arrow keys walk to the answer and Enter
    confirms it (arrows alone only move the selection, so the step stays until the visitor confirms)."""
    options = field["options"]
    wanted = options.index(first_acceptable(field))
    tab_to(page, page.get_by_role("radio", name=options[0], exact=True))
    if wanted == 0:
        page.keyboard.press("Space")
        return
    for _ in range(wanted):
        page.keyboard.press("ArrowDown")
    expect(page.get_by_role("radio", name=options[wanted], exact=True)).to_be_checked()
    expect(page.get_by_role("radio", name=options[wanted], exact=True)).to_be_visible()
    page.keyboard.press("Enter")


def fill_by_keyboard(page: Page, field: dict, contact: Contact) -> None:
    label = field["label"]
    kind = field["type"]
    if kind == "date":
        for part, typed, stored in (("Month", "April", "04"), ("Day", "02", "02"), ("Year", "1960", "1960")):
            control = page.get_by_label(f"{label} {part}", exact=True)
            type_into(page, control, typed)
            expect(control).to_have_value(stored)
    elif kind == "select":
        control = page.get_by_label(label, exact=True)
        type_into(page, control, "Texas")
        expect(control).to_have_value(contact.state)
    elif kind == "textarea":
        type_into(page, page.get_by_label(label), "Please call in the afternoon.")
    else:
        value = getattr(contact, field["id"], None) or {"email": contact.email, "tel": contact.phone}[kind]
        type_into(page, page.get_by_label(label, exact=True), value)


@pytest.mark.clock_installed  # thank_you_heading moves the clock past the loader
def test_a_whole_lead_form_by_keyboard_alone(page: Page, live_server: str, server_engine):
    """auto-accident from its service page: radios, date dropdowns, textarea, text, email, the state
    select, phone and consent, with Tab, Shift+Tab, Space, Enter and arrow keys only."""
    service = service_config(live_server, "auto-accident", "legal")
    steps = lead_form_steps(live_server, service)
    contact = Contact()
    before = len(stored_leads(server_engine, "auto-accident"))
    page.goto("/legal/auto-accident")
    expect_step(page, 1, len(steps))

    for index, step_fields in enumerate(steps):
        expect_step(page, index + 1, len(steps))
        last = index == len(steps) - 1
        for field in step_fields:
            if field["type"] != "radio":
                fill_by_keyboard(page, field, contact)
        if index == 1:
            # Back once, then confirm the remembered answer of the step before with Enter.
            tab_to(page, page.get_by_role("button", name="Back"))
            page.keyboard.press("Enter")
            expect_step(page, index, len(steps))
            tab_to(page, page.get_by_role("radio", checked=True))
            page.keyboard.press("Enter")
            expect_step(page, index + 1, len(steps))
        if any(field["id"] == "first" for field in step_fields):
            # Shift+Tab walks back up the step to the first answer, which kept what was typed.
            first = page.get_by_label("First Name", exact=True)
            tab_to(page, first, backwards=True)
            expect(first).to_have_value(contact.first)
        radios = [f for f in step_fields if f["type"] == "radio"]
        for field in radios:
            choose_radio_by_keyboard(page, field)
        if last:
            tab_to(page, page.get_by_role("checkbox"))
            page.keyboard.press("Space")
            expect(page.get_by_role("checkbox")).to_be_checked()
            tab_to(page, page.get_by_role("button", name="Submit"))
            page.keyboard.press("Enter")
        elif not radios:
            tab_to(page, page.get_by_role("button", name="Next"))
            page.keyboard.press("Enter")

    thank_you_heading(page)
    leads = stored_leads(server_engine, "auto-accident")
    assert len(leads) == before + 1
    answers = leads[-1]["answers"]
    incident = next(f for fields in steps for f in fields if f["id"] == "incident_date")
    assert answers.get(incident["mapping"]) == "1960-04-02", answers
    for field in (f for fields in steps for f in fields if f["type"] == "radio"):
        assert answers.get(field["mapping"]) == first_acceptable(field), answers


def expect_visible_focus_on_every_stop(page: Page, stops: int, screen: str) -> int:
    """Tab through the first `stops` stops; each link, button and control must show it has focus."""
    checked = 0
    for _ in range(stops):
        page.keyboard.press("Tab")
        focused = page.locator(":focus")
        if focused.count() != 1:
            continue
        tag = focused.evaluate("el => el.tagName.toLowerCase()")
        if tag in ("a", "button", "input", "select", "textarea"):
            assert focused.evaluate(HAS_FOCUS_INDICATOR), (
                f"no visible focus indicator on {screen}: {page.evaluate(FOCUSED_DESCRIPTION)}")
            checked += 1
    return checked


def test_focus_is_visible_on_links_buttons_inputs_and_radios(page: Page, live_server: str):
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert expect_visible_focus_on_every_stop(page, 30, "the home page") >= 10

    steps = lead_form_steps(live_server, service_config(live_server, "hvac"))
    page.goto("/form/hvac")
    expect_step(page, 1, len(steps))
    radio = page.get_by_role("radio").first
    tab_to(page, radio)
    assert radio.evaluate(HAS_FOCUS_INDICATOR), "no visible focus indicator on a radio"

    contact_step = next(i for i, fields in enumerate(steps) if any(f["id"] == "email" for f in fields))
    advance_to(page, steps, contact_step)
    for label in ("First Name", "Email Address", "State"):
        control = page.get_by_label(label, exact=True)
        tab_to(page, control)
        assert control.evaluate(HAS_FOCUS_INDICATOR), f"no visible focus indicator on {label}"
    next_button = page.get_by_role("button", name="Next")
    tab_to(page, next_button)
    assert next_button.evaluate(HAS_FOCUS_INDICATOR), "no visible focus indicator on Next"

    answer_step(page, steps[contact_step], Contact(), last=False)
    expect_step(page, len(steps), len(steps))
    for control in (page.get_by_role("checkbox"), page.get_by_role("link", name="marketing partners")):
        tab_to(page, control)
        assert control.evaluate(HAS_FOCUS_INDICATOR), f"no visible focus indicator on {control}"


def test_every_control_has_a_label_tied_to_it(page: Page, live_server: str):
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.evaluate(UNLABELLED_CONTROLS) == [], "unlabelled controls on the home page"

    for slug, walk in (("auto-accident", lead_form_steps), ("final-expense-ib", None)):
        service = service_config(live_server, slug)
        steps = walk(live_server, service) if walk else call_flow_steps(service)
        page.goto(f"/form/{slug}" if walk else f"/call/{slug}")
        contact = Contact()
        for index, step_fields in enumerate(steps[:-1]):
            expect_step(page, index + 1, len(steps))
            assert page.evaluate(UNLABELLED_CONTROLS) == [], f"unlabelled controls on {slug} step {index + 1}"
            answer_step(page, step_fields, contact, last=False)
        expect_step(page, len(steps), len(steps))
        assert page.evaluate(UNLABELLED_CONTROLS) == [], f"unlabelled controls on the last step of {slug}"


def announced(page: Page, message: str) -> Locator:
    """The live region (aria-live or role=alert) that holds the message, so screen readers read it out."""
    return page.locator("[aria-live]:not([aria-live='off']), [role=alert], [role=status]").filter(has_text=message)


def test_field_errors_are_announced(page: Page, live_server: str):
    steps = lead_form_steps(live_server, service_config(live_server, "hvac"))
    contact_step = next(i for i, fields in enumerate(steps) if any(f["id"] == "email" for f in fields))
    page.goto("/form/hvac")
    advance_to(page, steps, contact_step)
    next_button = page.get_by_role("button", name="Next")
    tab_to(page, next_button)
    page.keyboard.press("Enter")
    expect(announced(page, "This field is required.").first).to_be_visible()
    expect(page.get_by_label("First Name", exact=True)).to_be_focused()

    for field in steps[contact_step]:
        fill_by_keyboard(page, field, Contact(email="maria@example"))
    tab_to(page, next_button)
    page.keyboard.press("Enter")
    expect(announced(page, "Invalid email format")).to_have_count(1)
    email = page.get_by_label("Email Address", exact=True)
    expect(email).to_have_attribute("aria-invalid", "true")
    expect(announced(page, "This field is required.")).to_have_count(0)


def test_disqualification_is_announced_and_takes_focus(page: Page, live_server: str):
    steps = call_flow_steps(service_config(live_server, "final-expense-ib"))
    page.goto("/call/final-expense-ib")
    advance_to(page, steps, 1)
    page.get_by_role("radio", name="Under 50", exact=True).click()
    sorry = page.get_by_role("heading", name="We're sorry...")
    expect(sorry).to_be_focused()
    expect(announced(page, "We're sorry...")).to_have_count(1)


def expect_focus_stays_inside(page: Page, container: Locator, presses: int, key: str = "Tab") -> None:
    for _ in range(presses):
        page.keyboard.press(key)
        assert container.evaluate("el => el.contains(document.activeElement)"), (
            f"{key} left the dialog for {page.evaluate(FOCUSED_DESCRIPTION)}")


def test_marketing_partners_modal_keeps_focus_and_escape_returns_it(page: Page, live_server: str):
    steps = lead_form_steps(live_server, service_config(live_server, "flooring"))
    page.goto("/form/flooring")
    advance_to(page, steps, len(steps) - 1)
    link = page.get_by_role("link", name="marketing partners")
    tab_to(page, link)
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Marketing Partners")
    expect(dialog).to_be_visible()
    expect(dialog).to_be_focused()
    expect_focus_stays_inside(page, dialog, 6)
    expect_focus_stays_inside(page, dialog, 6, "Shift+Tab")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(link).to_be_focused()


def test_phone_menu_keeps_focus_and_escape_returns_it(page: Page):
    if (page.viewport_size or {}).get("width", 0) >= 1024:
        pytest.skip("the slide-in menu is the phone layout")
    page.goto("/")
    opener = page.get_by_role("button", name="Open menu")
    tab_to(page, opener)
    page.keyboard.press("Enter")
    panel = page.get_by_role("dialog", name="Menu")
    expect(panel.get_by_role("button", name="Close menu")).to_be_focused()
    links = panel.get_by_role("link").count()
    expect_focus_stays_inside(page, panel, links + 3)
    expect_focus_stays_inside(page, panel, 3, "Shift+Tab")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(opener).to_be_focused()

    page.keyboard.press("Enter")
    expect(panel.get_by_role("button", name="Close menu")).to_be_focused()
    page.keyboard.press("Enter")
    expect(panel).to_be_hidden()
    expect(opener).to_be_focused()
