"""What a visitor sees and can tap (issue 10, section 1): the phone menu, the sticky form column,
one headline, the funnel footer, the Terms of Use page and the privacy table on a phone."""

from __future__ import annotations

import re

import pytest
from funnel_steps import is_desktop, service_config
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

# Is the element at the centre of `element` the element itself or inside it? (What a tap hits.)
HIT_TEST = """element => {
  const box = element.getBoundingClientRect()
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
  return !!hit && (hit === element || element.contains(hit))
}"""


def assert_tappable(link: Locator) -> None:
    link.scroll_into_view_if_needed()
    assert link.evaluate(HIT_TEST), f"a tap on {link.inner_text()!r} lands on something else"


def test_phone_menu_covers_the_screen_and_every_link_is_tappable(page: Page):
    if is_desktop(page):
        pytest.skip("the slide-in menu is the phone layout")
    page.goto("/")
    page.get_by_role("button", name="Open menu").click()
    panel = page.get_by_role("dialog", name="Menu")
    expect(panel).to_be_visible()
    expect(panel.get_by_role("button", name="Close menu")).to_be_focused()
    page.wait_for_timeout(350)  # the slide-in transition
    box = panel.bounding_box()
    height = page.viewport_size["height"]
    assert box and box["y"] <= 0.5 and box["height"] >= height - 1, f"the panel is {box}, not full height"
    links = panel.get_by_role("link")
    assert links.count() > 20
    for index in range(links.count()):
        assert_tappable(links.nth(index))


def test_phone_menu_keeps_focus_inside_while_open(page: Page):
    if is_desktop(page):
        pytest.skip("the slide-in menu is the phone layout")
    page.goto("/")
    page.get_by_role("button", name="Open menu").click()
    panel = page.get_by_role("dialog", name="Menu")
    expect(panel.get_by_role("button", name="Close menu")).to_be_focused()
    stops = panel.locator("a[href], button").count()
    inside = "element => element.contains(document.activeElement)"
    for _ in range(stops + 2):
        page.keyboard.press("Tab")
        assert panel.evaluate(inside), "Tab left the open menu"
    for _ in range(3):
        page.keyboard.press("Shift+Tab")
        assert panel.evaluate(inside), "Shift+Tab left the open menu"
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(page.get_by_role("button", name="Open menu")).to_be_focused()


def test_the_form_column_sticks_on_desktop(page: Page):
    if not is_desktop(page):
        pytest.skip("the sticky column is the desktop layout")
    page.goto("/services/roofing")
    form = page.get_by_role("region", name=re.compile("request form$"))
    expect(form).to_be_visible()
    page.mouse.wheel(0, 1000)
    page.wait_for_function("() => window.scrollY >= 1000")
    box = form.bounding_box()
    height = page.viewport_size["height"]
    assert box and 0 <= box["y"] < height / 2, f"scrolled 1,000 px the form sits at {box}"
    assert_tappable(form.get_by_role("radio").first)


def test_the_service_page_says_its_headline_once(page: Page, live_server: str):
    service = service_config(live_server, "roofing")
    page.goto("/services/roofing/tx")
    expect(page.get_by_role("region", name=re.compile("request form$"))).to_be_visible()
    headings = page.locator("h1:visible, h2:visible, h3:visible")
    texts = [text.strip() for text in headings.all_inner_texts()]
    repeated = [text for text in texts if text.startswith(service["title"])]
    assert len(repeated) == 1, f"the headline shows {len(repeated)} times: {repeated}"
    expect(page.locator("h1:visible")).to_have_count(1)


@pytest.mark.parametrize("path", ["/form/hvac", "/call/final-expense-ib"])
def test_funnel_pages_have_a_compact_footer(page: Page, live_server: str, path: str):
    slug = path.rsplit("/", 1)[-1]
    service = service_config(live_server, slug)
    page.goto(path)
    footer = page.get_by_role("contentinfo")
    expect(footer).to_be_visible()
    for name, href in (("Privacy Policy", "/privacy-policy"), ("Terms of Use", "/terms")):
        link = footer.get_by_role("link", name=name)
        expect(link).to_have_attribute("href", href)
        assert_tappable(link)
    expect(footer).to_contain_text(re.compile(r"© \d{4}"))
    if service.get("disclaimer"):
        expect(footer).to_contain_text(service["disclaimer"][:60])
    # Compact: the site footer's category lists stay off the funnel.
    expect(footer.get_by_role("link", name="Roofing")).to_have_count(0)


def test_terms_of_use_page(page: Page):
    response = page.goto("/terms")
    assert response and response.status == 200
    expect(page.get_by_role("heading", name="Terms of Use", level=1)).to_be_visible()
    expect(page.get_by_role("contentinfo").get_by_role("link", name="Terms of Use")).to_be_visible()


def test_the_privacy_table_reads_on_a_phone(page: Page):
    if is_desktop(page):
        pytest.skip("the narrow layout")
    page.goto("/privacy-policy")
    table = page.get_by_role("table", name="Categories of personal information")
    expect(table).to_be_visible()
    width = page.viewport_size["width"]
    box = table.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, f"the table is cut off: {box}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Every category's examples are shown whole, in lines a person can read (not one word per line).
    examples = table.get_by_text("Fingerprints, faceprints, voiceprints.").filter(visible=True)
    assert examples.bounding_box()["width"] >= 150
