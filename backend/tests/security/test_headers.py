"""Security headers on every answer, the CSP per setting, and the CSP report endpoint."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from servicematch.app import create_app
from servicematch.security.csp import content_security_policy

PATHS = ["/", "/services/hvac", "/no-such-page", "/assets/app-1234.js", "/robots.txt", "/sitemap.xml",
         "/api/health", "/api/catalog", "/api/no-such-route", "/openapi.json", "/docs"]


def directive(policy: str, name: str) -> str:
    return next(part.strip() for part in policy.split(";") if part.strip().startswith(name + " "))


@pytest.mark.parametrize("path", PATHS)
def test_every_answer_carries_the_security_headers(client, path):
    response = client.get(path)
    assert response.status_code < 500, response.text
    headers = response.headers
    policy = headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in directive(policy, "script-src")
    assert "'unsafe-eval'" not in policy
    assert "frame-ancestors 'none'" in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "camera=()" in headers["Permissions-Policy"]
    assert "Strict-Transport-Security" not in headers  # not in tests: only production is HTTPS-only


def test_refusals_and_errors_carry_them_too(client):
    too_large = client.post("/api/submit-form", content=b"x" * 70_000, headers={"Content-Type": "application/json"})
    invalid = client.post("/api/validate", json={"type": "fax"})
    assert too_large.status_code == 413 and invalid.status_code == 422
    for response in (too_large, invalid):
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert "Content-Security-Policy" in response.headers


def test_scripts_come_from_the_site_only_while_every_integration_is_off(settings):
    policy = content_security_policy(settings)
    assert directive(policy, "script-src") == "script-src 'self'"
    assert directive(policy, "frame-src") == "frame-src 'none'"


@pytest.mark.parametrize(("setting", "value", "host"), [
    ("recaptcha_site_key", "site-key", "https://www.google.com/recaptcha/"),
    ("trustedform_enabled", True, "https://api.trustedform.com"),
    ("pixel_id", "1234", "https://connect.facebook.net"),
    ("call_tracking_script_url", "https://calls.example.test/{jsid}.js", "https://calls.example.test"),
    ("google_maps_api_key", "maps-key", "https://maps.googleapis.com"),
])
def test_each_third_party_host_is_allowed_only_while_its_setting_is_on(settings, setting, value, host):
    assert host not in content_security_policy(settings)
    on = content_security_policy(settings.model_copy(update={setting: value}))
    assert host in directive(on, "script-src")


def test_styles_come_from_files_only(settings):
    # No inline <style> and no style="" attribute: only style sheets, from the site (and /docs's CDN).
    assert directive(content_security_policy(settings), "style-src") == "style-src 'self'"
    assert "'unsafe-inline'" not in directive(content_security_policy(settings, docs=True), "style-src")


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", "/api/console/session", None), ("POST", "/api/console/session", {"email": "a@b.co", "password": "x"}),
    ("GET", "/api/console/leads", None), ("POST", "/api/privacy/requests", {"kind": "fax"}),
    ("POST", "/api/privacy/stop/preview", {"token": "not-a-token"}), ("GET", "/api/admin/providers", None),
    ("GET", "/api/buyer/session", None), ("GET", "/api/buyer/v1/leads", None),
    ("POST", "/api/buyer/session", {"email": "a@b.co", "password": "x"}),
])
def test_console_admin_privacy_and_buyer_answers_are_never_stored(client, method, path, body):
    answer = client.request(method, path, json=body)
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.headers["Cache-Control"] == "no-store"


def test_public_answers_keep_their_own_caching(client):
    assert "no-store" not in client.get("/api/catalog").headers["Cache-Control"]
    assert "Cache-Control" not in client.get("/api/health").headers


def test_the_build_manifest_and_other_dot_files_are_not_served(settings, static_dir, tmp_path):
    site = tmp_path / "site"
    (site / ".vite").mkdir(parents=True)
    (site / "index.html").write_text((static_dir / "index.html").read_text())
    (site / ".vite" / "manifest.json").write_text("{}")
    (site / ".hidden.txt").write_text("secret")
    (site / "favicon.svg").write_text("<svg/>")
    app = create_app(settings.model_copy(update={"static_dir": site}))
    with TestClient(app) as client:
        for path in ("/.vite/manifest.json", "/.hidden.txt", "/assets/../.vite/manifest.json"):
            answer = client.get(path)
            assert "{}" != answer.text and "secret" not in answer.text, path
            assert answer.headers["content-type"].startswith("text/html")  # the site's page, not the file
        assert client.get("/favicon.svg").text == "<svg/>"  # files without a dot still are
    app.state.engine.dispose()


def test_production_sends_hsts(settings):
    production = settings.model_copy(update={"environment": "production"})
    app = create_app(production)
    with TestClient(app) as client:
        response = client.get("/api/health")
    app.state.engine.dispose()
    assert response.headers["Strict-Transport-Security"].startswith("max-age=63072000")
    assert "upgrade-insecure-requests" in response.headers["Content-Security-Policy"]


def test_production_without_recaptcha_logs_an_error_at_start(settings, caplog):
    production = settings.model_copy(update={"environment": "production"})
    with caplog.at_level(logging.WARNING, logger="servicematch"):
        create_app(production).state.engine.dispose()
    [record] = [r for r in caplog.records if "reCAPTCHA is off" in r.getMessage()]
    assert record.levelno == logging.ERROR



def test_production_with_private_webhooks_allowed_says_so_at_start(settings, caplog):
    production = settings.model_copy(update={"environment": "production", "allow_private_webhooks": True})
    with caplog.at_level(logging.WARNING, logger="servicematch"):
        create_app(production).state.engine.dispose()
    [record] = [r for r in caplog.records if "SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS" in r.getMessage()]
    assert record.levelno == logging.ERROR  # as every weakness production tolerates
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="servicematch"):
        create_app(settings.model_copy(update={"allow_private_webhooks": True})).state.engine.dispose()
    assert not [r for r in caplog.records if "SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS" in r.getMessage()]


def test_the_docs_page_runs_no_inline_script(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert "<script>" not in page.text and 'src="/docs/swagger-init.js"' in page.text
    init = client.get("/docs/swagger-init.js")
    assert init.status_code == 200 and "'/openapi.json'" not in init.text and '"/openapi.json"' in init.text


def test_docs_and_schema_are_off_in_production_unless_turned_on(settings):
    production = settings.model_copy(update={"environment": "production"})
    for overrides, expected in (({}, 404), ({"api_docs": True}, 200)):
        app = create_app(production.model_copy(update=overrides))
        with TestClient(app) as client:
            assert client.get("/openapi.json").status_code == expected
            assert client.get("/docs").status_code == expected
        app.state.engine.dispose()


def test_a_csp_report_is_logged_without_the_page_query(client, caplog):
    report = {"csp-report": {"document-uri": "https://site.example/form/hvac?email=a@b.co",
                             "violated-directive": "script-src-elem", "effective-directive": "script-src-elem",
                             "blocked-uri": "inline", "line-number": 3, "disposition": "enforce"}}
    with caplog.at_level(logging.WARNING, logger="servicematch.csp"):
        response = client.post("/api/csp-report", json=report,
                               headers={"Content-Type": "application/csp-report"})
    assert response.status_code == 204
    [record] = [r for r in caplog.records if r.name == "servicematch.csp"]
    assert "script-src-elem" in record.getMessage() and "blocked-uri=inline" in record.getMessage()
    assert "a@b.co" not in record.getMessage()


def test_reporting_api_batches_are_read_and_garbage_is_dropped(client, caplog):
    batch = [{"type": "csp-violation", "body": {"effectiveDirective": "img-src",
                                                "blockedURL": "https://evil.example/x.png\x1b[2J"}}]
    with caplog.at_level(logging.WARNING, logger="servicematch.csp"):
        assert client.post("/api/csp-report", json=batch).status_code == 204
        assert client.post("/api/csp-report", content=b"\xff not json").status_code == 204
        assert client.post("/api/csp-report", content=b"x" * 20_000).status_code == 413
    messages = [r.getMessage() for r in caplog.records if r.name == "servicematch.csp"]
    assert len(messages) == 1 and "img-src" in messages[0] and "\x1b" not in messages[0]
