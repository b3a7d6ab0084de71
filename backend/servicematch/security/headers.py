"""Security headers on every answer: pages, API answers, assets and errors alike."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from servicematch.settings import Settings

from .csp import content_security_policy

# Features the site never uses; geolocation stays off too (addresses are typed, not located).
PERMISSIONS_POLICY = ("accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), "
                      "gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), usb=(), "
                      "interest-cohort=()")
# Two years, subdomains included: what the HSTS preload list asks for.
HSTS = "max-age=63072000; includeSubDomains"
# Answers about operators, providers, leads, applications, a person's privacy requests and what became
# of their request: no browser or proxy keeps a copy.
PRIVATE_PREFIXES = ("/api/console/", "/api/privacy/", "/api/admin/", "/api/leads/", "/api/pro/", "/api/buyer/",
                    "/api/partner/applications")
NO_STORE = {"Cache-Control": "no-store"}


class SecurityHeaders:
    """Adds the headers to each response start; a header a route set itself is left alone."""

    def __init__(self, app: ASGIApp, *, settings: Settings, docs_path: str | None) -> None:
        self.app = app
        self.docs_path = docs_path
        common = {
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "strict-origin-when-cross-origin",
            "Permissions-Policy": PERMISSIONS_POLICY,
            "X-Frame-Options": "DENY",
            "Cross-Origin-Opener-Policy": "same-origin",
        }
        if settings.environment == "production":
            common["Strict-Transport-Security"] = HSTS
        self.headers = _encoded({**common, "Content-Security-Policy": content_security_policy(settings)})
        self.docs_headers = _encoded({**common, "Content-Security-Policy": content_security_policy(settings, docs=True)})
        self.private_headers = self.headers + _encoded(NO_STORE)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if self.docs_path and path == self.docs_path:
            extra = self.docs_headers
        elif path.startswith(PRIVATE_PREFIXES):
            extra = self.private_headers
        else:
            extra = self.headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # On every answer: one pass over the route's own headers, not one per header added.
                raw = message["headers"] = list(message.get("headers", ()))
                own = {name.lower() for name, _ in raw}
                raw.extend(header for header in extra if header[0] not in own)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _encoded(headers: dict[str, str]) -> tuple[tuple[bytes, bytes], ...]:
    """Headers as ASGI sends them: lower-case names, latin-1 bytes."""
    return tuple((name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers.items())
