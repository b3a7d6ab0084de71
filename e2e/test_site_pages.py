"""The site pages end to end: home, category, service, static pages, errors and metadata."""

from __future__ import annotations

import re
from datetime import date

import pytest
from funnel_steps import is_desktop, wait_until_interactive
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_home_shows_every_section(page: Page, save_screenshot):
    page.goto("/")
    expect(page.get_by_role("heading", name="Find Trusted Local Service Professionals", level=1)).to_be_visible()
    expect(page.get_by_label("Service", exact=True)).to_have_value("")
    expect(page.get_by_label("Service", exact=True).locator("option").first).to_have_text("Select a service...")
    expect(page.get_by_role("heading", name="Our Services", level=2)).to_be_visible()
    cards = page.get_by_role("region", name="Our Services").get_by_role("link")
    expect(cards).to_have_count(4)
    # No testimonials or success stories nobody wrote; a rating only from enough reviews (test_site_claims.py).
    for heading in ("What Our Users Say", "Success Stories"):
        expect(page.get_by_role("heading", name=heading)).to_have_count(0)
    trust = page.get_by_role("region", name="Why people trust us")
    expect(trust.get_by_role("listitem")).to_have_count(4)
    for claim in ("100% Free", "256-bit Encryption", "All 50 States"):
        expect(trust.get_by_text(claim)).to_be_visible()
    footer = page.get_by_role("contentinfo")
    expect(footer.get_by_text(f"© {date.today().year} ServiceMatch")).to_be_visible()
    for name, path in (("About Us", "/about-us"), ("Partner With Us", "/partner-with-us"),
                       ("Privacy Policy", "/privacy-policy")):
        expect(footer.get_by_role("link", name=name)).to_have_attribute("href", path)
    expect(footer.get_by_role("link", name="Collections and Debt")).to_have_attribute("href", "/legal/debt-relief")
    expect(footer.get_by_role("link", name="Credit Card Debt")).to_have_attribute("href", "/financial/debt-relief")
    save_screenshot(page, "home")


def test_get_quotes_says_what_is_missing_then_goes_to_the_service(page: Page, save_screenshot):
    page.goto("/")
    wait_until_interactive(page)
    page.get_by_role("button", name="Get Quotes").click()
    # Each message sits under its own field.
    expect(page.locator("#home-service-error")).to_have_text("Please select a service.")
    expect(page.locator("#home-address-error")).to_have_text("Please enter your address.")

    page.get_by_label("Service", exact=True).select_option(label="HVAC")
    page.get_by_role("button", name="Get Quotes").click()
    expect(page.locator("#home-service-error")).to_have_text("")
    expect(page.locator("#home-address-error")).to_have_text("Please enter your address.")

    address = page.get_by_role("combobox", name="Your address")
    address.fill("500 Congress Ave, Austin, TX 78701")
    option = page.get_by_role("option", name="Austin, TX 78701, 500 Congress Ave — as typed")
    # The first suggestion of a fresh server also loads the ZIP directory.
    expect(option).to_be_visible(timeout=15_000)
    save_screenshot(page, "home-address-suggestions")
    option.click()
    expect(address).to_have_value("500 Congress Ave, Austin, TX 78701")
    page.get_by_role("button", name="Get Quotes").click()

    expect(page).to_have_url(re.compile(r"/services/hvac$"))
    stored = page.evaluate("JSON.parse(localStorage.getItem('serviceMatchAddress'))")
    assert stored == {"address1": "500 Congress Ave", "city": "Austin", "state": "TX", "zip": "78701"}


def test_address_suggestions_work_by_keyboard(page: Page):
    page.goto("/")
    address = page.get_by_role("combobox", name="Your address")
    address.fill("Springfield IL")
    suggestions = page.get_by_role("listbox", name="Your address suggestions").get_by_role("option")
    expect(suggestions.first).to_contain_text("Springfield, IL")
    address.press("ArrowDown")
    expect(suggestions.first).to_have_attribute("aria-selected", "true")
    address.press("Enter")
    expect(page.get_by_role("listbox")).to_be_hidden()
    expect(address).to_have_value("Springfield, IL")


def test_category_page_features_the_first_three_services(page: Page, save_screenshot):
    page.goto("/category/legal")
    expect(page.get_by_role("heading", level=1)).to_have_text("Connect With Local Attorneys for a Free Case Review")
    featured = page.get_by_role("region", name="Featured Services").get_by_role("heading", level=3)
    expect(featured).to_have_text(["Auto Accident", "Bankruptcy", "Criminal Defense"])
    all_services = page.get_by_role("region", name="All Services").get_by_role("link")
    expect(all_services).to_have_count(6)
    save_screenshot(page, "category")
    all_services.filter(has_text="Workers' Compensation").click()
    expect(page).to_have_url(re.compile(r"/legal/workers-comp$"))


def test_unknown_category_shows_not_found(page: Page):
    page.goto("/category/plumbing")
    expect(page.get_by_role("heading", name="Category Not Found")).to_be_visible()


def test_service_page_sections_and_state_links(page: Page, save_screenshot):
    page.goto("/services/hvac")
    expect(page.get_by_text("Step 1 of", exact=False)).to_be_visible()
    for heading in ("Why Use ServiceMatch?", "How It Works", "Frequently Asked Questions",
                    "Available in All 50 States"):
        expect(page.get_by_role("heading", name=heading, level=2)).to_be_visible()
    for reason in ("No Stress", "Save Time", "Free Service", "Local Experts"):
        expect(page.get_by_role("heading", name=reason, level=3)).to_be_visible()
    expect(page.get_by_role("region", name="How It Works").get_by_role("listitem")).to_have_count(3)
    states = page.get_by_role("region", name="Available in All 50 States").get_by_role("link")
    expect(states).to_have_count(51)
    expect(states.filter(has_text="HVAC in District of Columbia")).to_have_attribute("href", "/services/hvac/dc")
    expect(states.filter(has_text="HVAC in Texas")).to_have_attribute("href", "/services/hvac/tx")
    expect(page.get_by_test_id("service-disclaimer")).to_contain_text("independent third-party contractors")
    hero = page.get_by_role("heading", name="Get Free HVAC Quotes From Local Pros", level=1)
    if is_desktop(page):
        expect(hero).to_be_visible()
    save_screenshot(page, "service-hvac")

    page.get_by_text("How many contractors will contact me?").click()
    expect(page.get_by_text("up to 3", exact=False).first).to_be_visible()


def test_legal_service_shows_no_testimonials_or_rating(page: Page):
    page.goto("/legal/bankruptcy")
    expect(page.get_by_role("heading", name="Frequently Asked Questions")).to_be_visible()
    expect(page.get_by_role("heading", name="What Our Users Say")).to_have_count(0)
    expect(page.get_by_role("heading", name="What Consumers Say")).to_have_count(0)


def test_unknown_service_says_service_not_found(page: Page):
    page.goto("/services/underwater-basket-weaving")
    expect(page.get_by_role("heading", name="Service Not Found")).to_be_visible()
    page.goto("/legal/hvac")
    expect(page.get_by_role("heading", name="Service Not Found")).to_be_visible()


def expect_error_screen_in_the_site_shell(page: Page) -> None:
    expect(page.get_by_role("heading", name="Unexpected Application Error!", level=1)).to_be_visible()
    expect(page.get_by_text("404 Not Found", exact=True)).to_be_visible()
    header = page.get_by_role("banner")
    expect(header.get_by_role("link", name="ServiceMatch")).to_be_visible()
    if is_desktop(page):
        expect(header.get_by_role("navigation", name="Main")).to_be_visible()
    else:
        expect(header.get_by_role("button", name="Open menu")).to_be_visible()
    footer = page.get_by_role("contentinfo")
    expect(footer.get_by_role("link", name="Privacy Policy")).to_be_visible()
    home = page.get_by_role("main").get_by_role("link", name="Return Home")
    expect(home).to_have_attribute("href", "/")
    expect(home).to_be_visible()
    box = home.bounding_box()
    assert box and box["height"] >= 44, box  # big enough to tap


def test_unknown_route_shows_the_router_error_screen(page: Page, live_server: str):
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    response = page.goto("/no/such/page/here")
    assert response is not None and response.status == 404
    # The page arrives with the screen in it, and React takes it over as it is.
    assert page.evaluate("() => document.getElementById('root').hasAttribute('data-prerendered')")
    wait_until_interactive(page)
    expect_error_screen_in_the_site_shell(page)
    assert [p for p in problems if "404" not in p] == []
    page.screenshot(path=f"/tmp/funnel-shots/404-{page.viewport_size['width']}.png")
    if not is_desktop(page):
        page.get_by_role("button", name="Open menu").click()
        expect(page.get_by_role("dialog").get_by_role("link").first).to_be_visible()
        page.keyboard.press("Escape")
    page.get_by_role("main").get_by_role("link", name="Return Home").click()
    expect(page).to_have_url(f"{live_server}/")
    expect(page.get_by_role("heading", name="Find Trusted Local Service Professionals")).to_be_visible()


def test_unknown_route_shows_the_error_screen_before_any_script_runs(browser, viewport, live_server: str):
    context = browser.new_context(viewport=viewport, java_script_enabled=False)
    try:
        page = context.new_page()
        response = page.goto(f"{live_server}/missing-page?subid1=x")
        assert response is not None and response.status == 404
        expect_error_screen_in_the_site_shell(page)
    finally:
        context.close()


def head_metadata(page: Page) -> dict[str, str]:
    return page.evaluate(
        """() => ({
            title: document.title,
            description: document.querySelector('meta[name="description"]').content,
            keywords: document.querySelector('meta[name="keywords"]').content,
            ogTitle: document.querySelector('meta[property="og:title"]').content,
            ogDescription: document.querySelector('meta[property="og:description"]').content,
            canonical: document.querySelector('link[rel="canonical"]').href,
        })"""
    )


def test_service_metadata_with_and_without_state(page: Page, live_server: str):
    page.goto("/services/hvac")
    expect(page).to_have_title("Get Free HVAC Quotes From Local Pros | ServiceMatch")
    meta = head_metadata(page)
    assert meta["description"].startswith("Need a new air conditioner")
    assert meta["ogTitle"] == meta["title"]
    assert meta["ogDescription"] == meta["description"]
    assert "HVAC contractors near me" in meta["keywords"]
    assert meta["canonical"] == f"{live_server}/services/hvac"

    # Client-side navigation (footer link, then a state link) keeps <head> in step.
    page.get_by_role("contentinfo").get_by_role("link", name="Auto Accident").click()
    expect(page).to_have_url(re.compile("/legal/auto-accident$"))
    page.get_by_role("link", name="Auto Accident in Texas").click()
    expect(page).to_have_url(re.compile("/legal/auto-accident/tx$"))
    expect(page).to_have_title(re.compile(r" in Texas \| ServiceMatch$"))
    meta = head_metadata(page)
    assert meta["canonical"] == f"{live_server}/legal/auto-accident/tx"
    assert meta["ogTitle"] == meta["title"]
    expect(page.get_by_role("heading", level=1).filter(has_text="in Texas")).to_have_count(1)


def test_category_and_fallback_metadata(page: Page, live_server: str):
    page.goto("/category/insurance")
    expect(page).to_have_title("Compare Insurance Quotes From Licensed Agents Near You | ServiceMatch")
    page.goto("/about-us")
    expect(page).to_have_title("About Us | ServiceMatch")
    assert head_metadata(page)["canonical"] == f"{live_server}/about-us"


def test_static_pages(page: Page, save_screenshot):
    page.goto("/about-us")
    for heading in ("For Consumers", "Our Commitment", "What Consumers Say"):
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
    # No figures nothing backs (docs/site-claims.md).
    for figure in ("50K+", "10K+", "95%", "Since 2016", "Verified providers"):
        expect(page.get_by_text(figure, exact=False)).to_have_count(0)

    page.goto("/partner-with-us")
    expect(page.get_by_role("heading", level=2).filter(has_text=re.compile(
        "Verified Badge|Matched Leads|Pay Per Accepted Lead|Exclusive Leads"))).to_have_count(4)
    expect(page.get_by_role("region", name="Why Providers Choose Us").get_by_role("listitem")).to_have_count(6)
    expect(page.get_by_role("link", name="Contact Us Now")).to_have_attribute("href", re.compile("^mailto:"))

    page.goto("/privacy-policy")
    expect(page.get_by_text("Last updated: April 29th 2024")).to_be_visible()
    rows = page.get_by_role("table").get_by_role("rowheader")
    expect(rows).to_have_count(11)
    expect(rows.first).to_have_text(re.compile("^A\\. Identifiers"))
    expect(rows.last).to_have_text(re.compile("^K\\. "))
    for heading in ("Your California Privacy Rights", "CCPA Provisions", "Your Nevada Privacy Rights"):
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
    page.get_by_role("navigation", name="Quick Links").get_by_role("link", name="CCPA Provisions").click()
    expect(page).to_have_url(re.compile("#ccpa$"))
    expect(page.get_by_role("heading", name="CCPA Provisions")).to_be_in_viewport()
    save_screenshot(page, "privacy-policy")


def test_route_change_scrolls_to_the_top(page: Page):
    page.goto("/services/hvac")
    wait_until_interactive(page)
    footer_link = page.get_by_role("contentinfo").get_by_role("link", name="Roofing")
    footer_link.scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 0
    footer_link.click()
    expect(page).to_have_url(re.compile("/services/roofing$"))
    page.wait_for_function("() => window.scrollY === 0")


def test_funnel_pages_use_the_reduced_shell(page: Page):
    page.goto("/form/hvac")
    expect(page.get_by_text("Step 1 of", exact=False)).to_be_visible()
    expect(page.get_by_role("link", name="ServiceMatch")).to_be_visible()
    expect(page.get_by_role("navigation", name="Main")).to_have_count(0)
    expect(page.get_by_role("button", name="Open menu")).to_have_count(0)
    # The compact funnel footer: the policy links, not the site's category lists.
    footer = page.get_by_role("contentinfo")
    expect(footer.get_by_role("link", name="Privacy Policy")).to_be_visible()
    expect(footer.get_by_role("navigation")).to_have_count(0)
