"""The provider portal at 390 and 1280 px: joining (apply, confirm the e-mail, an operator approves,
the invitation's link, a password, signed in) and the profile (services, area, hours, caps, pause)."""

from __future__ import annotations

import uuid

import pytest
from console_support import (
    controls,
    no_sideways_overflow,
    servicematch_cli,
    sign_in,
)
from playwright.sync_api import Page, expect
from portal_pages import PORTAL_PASSWORD, mailed_token
from sqlalchemy import text

pytestmark = pytest.mark.browser


def _tappable(page: Page) -> None:
    assert no_sideways_overflow(page), page.url
    for control in controls(page):
        if control.visible:
            box = control.box
            if box["y"] + box["height"] <= page.viewport_size["height"]:
                assert control.tappable_at_centre, f"{control.name} is covered"


def _open_profile(page: Page) -> None:
    """The profile, a tap away in the portal's navigation (signing in opens the offers, or the page asked for)."""
    page.get_by_role("navigation", name="Portal").get_by_role("link", name="Profile").click()
    expect(page.get_by_role("heading", name="Profile", level=1)).to_be_visible()


def test_join_apply_confirm_approve_choose_a_password_signed_in(page: Page, live_server, operators,
                                                                server_mail_dir, save_screenshot):
    email, business = f"ana-{uuid.uuid4().hex[:8]}@example.com", f"Cool Air {uuid.uuid4().hex[:4]}"
    page.goto("/partner-with-us")
    form = page.get_by_role("form", name="Apply to join")
    form.get_by_label("Business name").fill(business)
    form.get_by_label("Your name").fill("Ana Ruiz")
    form.get_by_label("E-mail", exact=True).fill(email)
    form.get_by_label("Phone", exact=True).fill("(512) 555-0142")
    form.get_by_label("HVAC", exact=True).check()
    form.get_by_label("Roofing", exact=True).check()
    form.get_by_label("ZIP codes", exact=True).fill("78701, 78702")
    form.get_by_label("Radius (miles)").fill("25")
    # HVAC needs a licence: its fields appear.
    form.get_by_label("Licence number").fill("TACLA12345C")
    form.get_by_label("Issuing state").select_option("TX")
    save_screenshot(page, "partner-application")
    form.get_by_role("button", name="Send my application").click()
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()

    page.goto(f"/pro/confirm-email#{mailed_token(server_mail_dir, email, 'confirm-email')}")
    expect(page.get_by_text("your e-mail address is confirmed")).to_be_visible()
    assert "#" not in page.url  # the token left the address bar

    sign_in(page, operators.admin, path="/admin/applications")
    card = page.get_by_role("region", name=business)
    expect(card).to_be_visible()
    _tappable(page)
    save_screenshot(page, "console-applications")
    card.get_by_role("button", name=f"Approve {business}").click()
    expect(card.get_by_text("was e-mailed an invitation")).to_be_visible()
    page.get_by_role("button", name="Sign out").click()

    page.goto(f"/pro/welcome#{mailed_token(server_mail_dir, email, 'welcome', count=2)}")
    expect(page.get_by_role("heading", name="Welcome: choose your password")).to_be_visible()
    page.get_by_label("New password").fill(PORTAL_PASSWORD)
    page.get_by_label("The same password again").fill(PORTAL_PASSWORD)
    page.get_by_role("button", name="Save and sign in").click()
    _open_profile(page)
    expect(page.get_by_role("navigation", name="Portal")).to_be_visible()
    expect(page.get_by_text(business).first).to_be_visible()
    expect(page.get_by_text("Not verified yet")).to_be_visible()
    _tappable(page)


@pytest.fixture
def invited_provider(server_database_url, server_mail_dir, live_server) -> str:
    """A provider invited with the CLI (ZIP codes and a radius), its password chosen through the link."""
    email = f"roof-{uuid.uuid4().hex[:8]}@example.com"
    servicematch_cli(server_database_url, "providers", "invite", "--email", email, "--name", "Top Roofs",
                     "--services", "roofing,services/gutters", "--zips", "78701", "--radius", "10",
                     env={"SERVICEMATCH_MAIL_DIR": str(server_mail_dir), "SERVICEMATCH_SITE_ORIGIN": live_server})
    return email


def test_the_profile_is_read_and_changed_from_a_phone_or_a_desk(page: Page, invited_provider, server_mail_dir,
                                                               server_engine, save_screenshot):
    page.goto(f"/pro/welcome#{mailed_token(server_mail_dir, invited_provider, 'welcome')}")
    page.get_by_label("New password").fill(PORTAL_PASSWORD)
    page.get_by_label("The same password again").fill(PORTAL_PASSWORD)
    page.get_by_role("button", name="Save and sign in").click()
    _open_profile(page)
    page.get_by_role("button", name="Sign out").click()

    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    _tappable(page)
    save_screenshot(page, "portal-sign-in")
    page.get_by_label("E-mail").fill(invited_provider)
    page.get_by_label("Password").fill(PORTAL_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    _open_profile(page)
    form = page.get_by_role("form", name="Your profile")
    expect(form).to_be_visible()

    form.get_by_label("Bathroom Remodeling").check()
    form.get_by_label("Gutters").uncheck()
    form.get_by_label("Whole states").check()
    form.get_by_label("Texas").check()
    form.get_by_label("District of Columbia").check()
    form.get_by_label("Only at set hours").check()
    form.get_by_text("Sat", exact=True).click()
    form.get_by_label("Leads a day, at most").fill("8")
    form.get_by_label("Weekly budget ($)").fill("300")
    form.get_by_role("button", name="Save profile").click()
    expect(form.get_by_text("Saved.")).to_be_visible()
    with server_engine.connect() as connection:
        row = connection.execute(text(
            "SELECT p.services, p.states, p.zips, p.hours, p.daily_cap, p.weekly_budget_cents FROM providers p "
            "JOIN provider_accounts a ON a.provider_id = p.id WHERE a.email = :email"), {"email": invited_provider}).one()
    assert (row.daily_cap, row.weekly_budget_cents, row.hours) == (
        8, 30000, "Mon,Tue,Wed,Thu,Fri,Sat 08:00-18:00 America/Chicago")
    assert '"services/bathroom-remodeling"' in row.services and "gutters" not in row.services
    assert row.states.replace(" ", "") == '["DC","TX"]' and row.zips == "[]"

    status = page.get_by_role("region", name="Status")
    status.get_by_role("button", name="Pause leads").click()
    expect(status.get_by_text("Paused", exact=True)).to_be_visible()
    status.get_by_role("button", name="Resume leads").click()
    expect(status.get_by_text("Active", exact=True)).to_be_visible()
    # The switch shows what the server saved: it turns once the answer is in.
    status.get_by_role("switch", name="Accept offers automatically").click()
    expect(status.get_by_role("switch", name="Accept offers automatically")).to_be_checked()
    page.reload()
    expect(page.get_by_role("switch", name="Accept offers automatically")).to_be_checked()
    expect(page.get_by_label("Leads a day, at most")).to_have_value("8")
    page.evaluate("() => window.scrollTo(0, 0)")
    _tappable(page)
    save_screenshot(page, "portal-profile")

    page.get_by_role("navigation", name="Portal").get_by_role("link", name="Security").click()
    expect(page.get_by_role("heading", name="Two-step sign-in")).to_be_visible()
    _tappable(page)


def test_an_operator_invites_from_the_console_and_the_badge_waits_for_the_licence_check(
        page: Page, live_server, operators, server_mail_dir, save_screenshot):
    email, name = f"hvac-{uuid.uuid4().hex[:8]}@example.com", f"Cold Front {uuid.uuid4().hex[:4]}"
    operator = operators.admin
    sign_in(page, operator, path="/admin/providers")
    page.get_by_role("button", name="Invite provider").click()
    form = page.get_by_role("form", name="Invite a provider")
    form.get_by_label("Business name").fill(name)
    form.get_by_label("E-mail (the sign-in name)").fill(email)
    form.get_by_label("Services").fill("services/hvac")
    form.get_by_label("Service area").select_option("states")
    # Not Texas: a Texas-wide HVAC provider would take a seat of the offers test's Texas leads.
    form.get_by_label("States").fill("OK, KS")
    form.get_by_label("Licence number").fill("TACLA77777C")
    form.get_by_label("Licence state").fill("TX")
    form.get_by_role("button", name="Send the invitation").click()
    expect(page.get_by_text(f"the invitation was e-mailed to {email}")).to_be_visible()
    card = page.get_by_role("region", name=name)
    expect(card.get_by_text("Review mode")).to_be_visible()
    page.get_by_role("button", name="Sign out").click()

    page.goto(f"/pro/welcome#{mailed_token(server_mail_dir, email, 'welcome')}")
    page.get_by_label("New password").fill(PORTAL_PASSWORD)
    page.get_by_label("The same password again").fill(PORTAL_PASSWORD)
    page.get_by_role("button", name="Save and sign in").click()
    _open_profile(page)
    status = page.get_by_role("region", name="Status")
    expect(status.get_by_text("Not verified yet")).to_be_visible()
    expect(status.get_by_text("Verified", exact=True)).to_have_count(0)
    page.get_by_role("button", name="Sign out").click()

    sign_in(page, operator, path="/admin/providers")
    page.get_by_role("region", name=name).get_by_role("button", name=f"Mark the licence of {name} checked").click()
    expect(page.get_by_role("region", name=name).get_by_text("Verified", exact=True)).to_be_visible()
    page.get_by_role("button", name="Sign out").click()

    page.goto("/pro")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PORTAL_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    _open_profile(page)
    expect(page.get_by_role("region", name="Status").get_by_text("Verified", exact=True)).to_be_visible()
    save_screenshot(page, "portal-verified")
