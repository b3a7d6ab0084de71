"""The Content-Security-Policy: our own scripts only, plus each third party while its setting is on."""

from __future__ import annotations

from urllib.parse import urlsplit

from servicematch.settings import Settings

REPORT_PATH = "/api/csp-report"
SELF, NONE = "'self'", "'none'"
# Swagger UI, for /docs only (its page carries no inline script either: see docs.py).
DOCS_CDN = "https://cdn.jsdelivr.net"


def _origin(url: str) -> str | None:
    parts = urlsplit(url.replace("{jsid}", "x"))
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("https", "http") and parts.netloc else None


def third_party_sources(settings: Settings) -> dict[str, set[str]]:
    """The hosts each enabled integration loads from, by directive."""
    sources: dict[str, set[str]] = {"script-src": set(), "connect-src": set(), "img-src": set(),
                                    "frame-src": set(), "style-src": set(), "font-src": set()}

    def allow(directive: str, *hosts: str) -> None:
        sources[directive].update(hosts)

    if settings.recaptcha_site_key:
        allow("script-src", "https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/")
        allow("frame-src", "https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/")
        allow("connect-src", "https://www.google.com/recaptcha/")
    if settings.trustedform_enabled:
        allow("script-src", "https://api.trustedform.com", "https://cert.trustedform.com")
        allow("connect-src", "https://api.trustedform.com", "https://cert.trustedform.com")
        allow("img-src", "https://api.trustedform.com", "https://cert.trustedform.com")
    if settings.pixel_id:
        allow("script-src", "https://connect.facebook.net")
        allow("connect-src", "https://connect.facebook.net", "https://www.facebook.com")
        allow("img-src", "https://www.facebook.com")
        allow("frame-src", "https://www.facebook.com")
    if settings.call_tracking_script_url and (origin := _origin(settings.call_tracking_script_url)):
        allow("script-src", origin)
        allow("connect-src", origin)
        allow("img-src", origin)
    if settings.google_maps_api_key:
        allow("script-src", "https://maps.googleapis.com", "https://maps.gstatic.com")
        allow("connect-src", "https://maps.googleapis.com")
        allow("img-src", "https://maps.gstatic.com", "https://maps.googleapis.com")
        allow("style-src", "https://fonts.googleapis.com")
        allow("font-src", "https://fonts.gstatic.com")
    return sources


def content_security_policy(settings: Settings, *, docs: bool = False) -> str:
    """The policy every answer carries; `docs` adds Swagger UI's CDN for the /docs page."""
    extra = third_party_sources(settings)
    if docs:
        extra["script-src"].add(DOCS_CDN)
        extra["style-src"].add(DOCS_CDN)
        extra["img-src"].add("https://fastapi.tiangolo.com")

    def sources(directive: str, *base: str) -> str:
        return " ".join((*base, *sorted(extra[directive]))) or NONE

    directives = [
        f"default-src {SELF}",
        # No 'unsafe-inline' and no 'unsafe-eval': only script files from these origins run.
        f"script-src {sources('script-src', SELF)}",
        # No inline <style> and no style="" in markup either (an injected one could restyle the page
        # to mislead); React's style props are set as DOM properties, which the policy allows.
        f"style-src {sources('style-src', SELF)}",
        f"img-src {sources('img-src', SELF, 'data:')}",
        f"font-src {sources('font-src', SELF, 'data:')}",
        f"connect-src {sources('connect-src', SELF)}",
        f"frame-src {sources('frame-src')}",
        f"object-src {NONE}",
        f"base-uri {SELF}",
        f"form-action {SELF}",
        f"frame-ancestors {NONE}",
        f"report-uri {REPORT_PATH}",
    ]
    if settings.environment == "production":
        directives.append("upgrade-insecure-requests")
    return "; ".join(directives)
