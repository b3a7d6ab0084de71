"""The route table (web/routes.json) that the server and the browser's router both read."""

from __future__ import annotations

import pytest

from servicematch.web.routes import match_route, routes


@pytest.mark.parametrize(
    ("path", "pattern", "params"),
    [
        ("/", "/", {}),
        ("/about-us", "/about-us", {}),
        ("/category/legal", "/category/:category", {"category": "legal"}),
        ("/services/roofing", "/services/:service", {"service": "roofing"}),
        ("/services/roofing/tx", "/services/:service/:state", {"service": "roofing", "state": "tx"}),
        ("/legal/auto-accident/tx", "/:vertical/:service/:state",
         {"vertical": "legal", "service": "auto-accident", "state": "tx"}),
        ("/form/hvac", "/form/:service", {"service": "hvac"}),
        ("/admin", "/admin/*", {"*": ""}),
        ("/admin/leads/12", "/admin/*", {"*": "leads/12"}),
        ("/buyer/leads/12", "/buyer/*", {"*": "leads/12"}),
    ],
)
def test_paths_match_their_route(path, pattern, params):
    route, found = match_route(path)
    assert (route.path, found) == (pattern, params)


@pytest.mark.parametrize("path", ["/a/b/c/d", "/about-us/extra/x/y"])
def test_paths_no_route_matches(path):
    assert match_route(path) is None


def test_every_route_is_well_formed():
    table = routes()
    assert len({route.path for route in table}) == len(table)
    for route in table:
        assert route.path.startswith("/")
        assert not (route.sitemap and not route.indexable), route.path
        # The console and the portals have entries of their own.
        assert route.screen is None or route.entry == "index.html", route.path


@pytest.mark.parametrize(("path", "entry"), [("/admin/leads", "admin.html"), ("/pro/welcome", "pro.html"),
                                             ("/buyer/leads/12", "buyer.html"), ("/buyer", "buyer.html")])
def test_the_console_and_the_portals_have_their_own_entry_and_are_never_indexed(path, entry):
    route, _ = match_route(path)
    assert (route.entry, route.indexable, route.sitemap, route.prerender) == (entry, False, False, False)


def test_funnel_pages_are_the_ones_the_router_shows_without_site_navigation():
    funnel = {route.path for route in routes() if route.funnel}
    assert funnel == {"/form/:service", "/form/:service/:state", "/call/:service", "/call/:service/:state",
                      "/thank-you", "/call-thanks", "/disqualified"}
