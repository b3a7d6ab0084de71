"""Runtime configuration, read from the environment (prefix SERVICEMATCH_)."""

from __future__ import annotations

import difflib
import logging
import os
import secrets
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Literal

from dotenv import dotenv_values
from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from servicematch.kernel.keys import decode_data_key, derive_key

log = logging.getLogger("servicematch")
PROJECT_ROOT = Path(__file__).resolve().parents[2]
VAR_DIR = PROJECT_ROOT / "var"
DEFAULT_SECRET = "dev-only-change-me"
# The development origin; production refuses to start with it.
DEFAULT_SITE_ORIGIN = "http://127.0.0.1:8000"
# Shortest secret production accepts (bytes): 256 bits, what HMAC-SHA256 and HKDF want.
MIN_SECRET_BYTES = 32


# A consumer consents to "marketing partners" by name (catalog/partners.py): an unnamed buyer is on
# no list, so routing sends it nothing.
UNNAMED_BUYER = ("SERVICEMATCH_BUYER_NAME must be set when SERVICEMATCH_BUYER_URL is: an unnamed buyer is on "
                 "no marketing-partners list, so it receives no leads; set the name consumers know it by")


class Settings(BaseSettings):
    """Every knob of the service; `.env.example` documents each one."""

    model_config = SettingsConfigDict(
        env_prefix="SERVICEMATCH_", env_file=".env", extra="ignore", frozen=True
    )

    environment: Literal["development", "test", "production"] = "development"
    secret_key: str = DEFAULT_SECRET
    database_url: str = f"sqlite:///{VAR_DIR / 'servicematch.db'}"
    site_origin: str = DEFAULT_SITE_ORIGIN
    brand_name: str = "ServiceMatch"
    catalog_dir: Path = PROJECT_ROOT / "catalog"
    static_dir: Path = PROJECT_ROOT / "frontend" / "dist"

    # Third parties: each is off while its key is empty, so the site works offline.
    recaptcha_site_key: str = ""
    recaptcha_secret_key: str = ""
    recaptcha_verify_url: str = "https://www.google.com/recaptcha/api/siteverify"
    recaptcha_min_score: float = Field(default=0.5, ge=0.0, le=1.0)
    google_maps_api_key: str = ""
    call_tracking_script_url: str = ""
    pixel_id: str = ""
    trustedform_enabled: bool = False

    # Lead intake: personal data is encrypted with data_key (32 bytes, base64); while it is
    # empty, a key generated on first use is kept in data_key_file (mode 0600).
    data_key: str = ""
    data_key_file: Path = VAR_DIR / "data.key"
    # Proxies (IPs or CIDR ranges, comma-separated) whose X-Forwarded-For header is believed.
    trusted_proxies: str = ""
    # Lead submissions accepted per client IP within the window (refused ones do not count).
    submit_rate_limit: int = Field(default=10, ge=1)
    submit_rate_window_seconds: int = Field(default=600, ge=1)
    # Lookups per client IP per minute: /api/validate, and address suggestions (one per keystroke).
    validate_rate_limit: int = Field(default=120, ge=1)
    address_rate_limit: int = Field(default=300, ge=1)
    # Status reads of submitted leads per client IP per minute (the thank-you page polls one lead).
    status_rate_limit: int = Field(default=120, ge=1)
    # Wrong admin tokens per client IP within the window before the admin API answers 429.
    admin_auth_failure_limit: int = Field(default=10, ge=1)
    admin_auth_window_seconds: int = Field(default=900, ge=1)
    # Where the per-client limits count: empty keeps them in each process's memory; a Redis URL
    # (redis://host:6379/0) shares them among every web process. Its keys start with the prefix.
    redis_url: str = ""
    redis_key_prefix: str = Field(default="servicematch", min_length=1)
    # /docs and /openapi.json: on by default outside production, off in production unless set.
    api_docs: bool | None = None
    duplicate_window_days: int = Field(default=30, ge=1)
    # Where accepted leads are committed: "batched" (group commit, intake/writer.py) or "simple"
    # (one transaction per lead); docs/benchmarks.md compares them.
    lead_store: Literal["batched", "simple"] = "batched"
    # How long the batched store waits for more leads to share a transaction (0: never waits).
    lead_batch_wait_ms: float = Field(default=1.0, ge=0, le=50)

    # Lead delivery: the buyer endpoint, provider e-mail, the worker and its retry schedule.
    buyer_url: str = ""
    buyer_secret: str = ""
    smtp_host: str = ""
    smtp_port: int = 587
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_sender: str = "ServiceMatch <leads@servicematch.invalid>"
    smtp_starttls: bool = True
    # Without an SMTP host, mail to consumers (receipts, codes) is kept here, one file per
    # message (mode 0600), for `servicematch mail list|show`: `make run` works offline.
    mail_dir: Path = VAR_DIR / "mail"
    # The lead buyer's name, as consent receipts tell consumers who may contact them.
    buyer_name: str = ""
    # Routing's auction (buyers of `servicematch buyers`): how long buyers have to bid, how long
    # a winner has to take the post, and the highest bid believed (dollars; above it is a pass).
    ping_timeout_ms: int = Field(default=1000, ge=50, le=30_000)
    post_timeout_ms: int = Field(default=3000, ge=100, le=30_000)
    # A post that may have reached its buyer without a definite answer (a timeout, a 5xx, a worker
    # stopped mid-send) is sent again to the same buyer, same webhook-id, for this long before it
    # is given up as in doubt; meanwhile nobody else is posted the lead.
    post_settle_seconds: int = Field(default=120, ge=5, le=24 * 3600)
    max_bid: float = Field(default=500.0, gt=0, le=100_000)
    # Privacy: lead personal data is erased after this many days; consent proof is kept 5 years.
    lead_retention_days: int = Field(default=3 * 365, ge=1)
    consent_retention_days: int = Field(default=5 * 365 + 1, ge=5 * 365)
    admin_token: str = ""
    worker_enabled: bool = True
    worker_poll_seconds: float = Field(default=2.0, gt=0)
    # Sends under way at once per worker, and at most this many to any one endpoint (the buyer,
    # one provider's webhook, the SMTP server), so a slow receiver cannot hold every slot.
    worker_concurrency: int = Field(default=32, ge=1, le=64)
    endpoint_concurrency: int = Field(default=8, ge=1, le=64)
    delivery_lease_seconds: int = Field(default=60, ge=5)
    delivery_timeout_seconds: float = Field(default=10.0, gt=0)
    retry_base_seconds: float = Field(default=5.0, gt=0)
    retry_max_delay_seconds: float = Field(default=4 * 3600.0, gt=0)
    retry_window_hours: float = Field(default=24.0, gt=0)
    # Circuit breaker: this many failures in a row pause an endpoint for the pause (doubling
    # while its probes fail); a successful probe resumes it.
    endpoint_failure_threshold: int = Field(default=5, ge=1)
    endpoint_pause_seconds: float = Field(default=60.0, gt=0)
    # Lets deliveries go to plain http:// and to private, loopback or link-local addresses.
    # Unset: allowed outside production, refused in production.
    allow_private_webhooks: bool | None = None

    # Operator console: sign-in sessions end after this long idle, and in any case after the
    # absolute limit; failed sign-ins are throttled per account and per address in the window.
    console_session_idle_minutes: int = Field(default=30, ge=1)
    console_session_max_hours: int = Field(default=12, ge=1)
    console_signin_failures_per_account: int = Field(default=5, ge=1)
    console_signin_failures_per_address: int = Field(default=20, ge=1)
    console_signin_window_seconds: int = Field(default=900, ge=1)
    # A browser the operator signed in from before (its known-device cookie) is judged only by
    # its own failures, this many in the window, not by the account's lockout strangers caused.
    console_signin_failures_per_device: int = Field(default=5, ge=1)
    # Provider portal (/pro): its own sessions (longer than the console's: providers answer from a
    # phone during the day) and its own sign-in throttle; applications to join per address an hour.
    portal_session_idle_minutes: int = Field(default=12 * 60, ge=1)
    portal_session_max_hours: int = Field(default=7 * 24, ge=1)
    portal_signin_failures_per_account: int = Field(default=5, ge=1)
    portal_signin_failures_per_address: int = Field(default=20, ge=1)
    portal_signin_window_seconds: int = Field(default=900, ge=1)
    # The portal's known devices: their own failures in the window, as the console's.
    portal_signin_failures_per_device: int = Field(default=5, ge=1)
    partner_application_rate_limit: int = Field(default=5, ge=1)
    # How long a provider in review mode has to accept an offer before it expires and the lead may
    # be offered to the next matching provider.
    offer_ttl_minutes: int = Field(default=120, ge=1, le=7 * 24 * 60)
    # A provider may ask for a credit on an accepted lead for this many days after accepting it.
    credit_window_days: int = Field(default=30, ge=1, le=365)
    # Days after a provider accepted a lead before the consumer is asked, once, to rate it.
    review_delay_days: int = Field(default=7, ge=1, le=365)
    # Funnel events accepted per client address per minute (more are dropped, never queued).
    events_rate_limit: int = Field(default=120, ge=1)
    events_retention_days: int = Field(default=30, ge=1)
    # Money (docs/money.md). Stripe is on when its secret key is set; its webhook's signing secret
    # verifies every event; the API base points the library at a local stand-in in tests.
    stripe_secret_key: str = ""
    stripe_webhook_secret: str = ""
    stripe_api_base: str = ""
    # What one "Add funds" or automatic top-up may charge, in whole dollars.
    topup_min_dollars: int = Field(default=1, ge=1, le=1_000_000)
    topup_max_dollars: int = Field(default=10_000, ge=1, le=1_000_000)
    # Days past an invoice's due date before its account stops receiving leads until it pays.
    overdue_grace_days: int = Field(default=7, ge=0, le=365)
    # Quality gate (docs/quality.md): a lead scoring under the threshold is held for an operator.
    quality_hold_below: int = Field(default=30, ge=0, le=100)
    # The fewest seconds a person takes from the form's first step to submitting it.
    quality_min_form_seconds: float = Field(default=5.0, ge=0, le=600)
    # More leads than the limit with one phone, e-mail, address or client address in the window.
    quality_velocity_limit: int = Field(default=3, ge=1, le=1000)
    quality_velocity_window_minutes: int = Field(default=10, ge=1, le=7 * 24 * 60)
    # Looks up an e-mail domain's mail server in DNS (off by default: it needs the network).
    quality_email_dns: bool = False
    # TrustedForm: certificates are verified and retained through its API while the key is set.
    trustedform_api_key: str = ""
    trustedform_api_base: str = "https://cert.trustedform.com"
    # Twilio Lookup (line type, carrier): on while both are set; the base points at a stand-in.
    twilio_account_sid: str = ""
    twilio_auth_token: str = ""
    twilio_lookup_base: str = ""
    # Production (docs/operations.md): who may read /metrics (IPs or CIDR ranges, comma-separated,
    # judged on the client address the trusted-proxy rule gives), and where the processes of one
    # deployment keep their shared metric files.
    metrics_allow: str = "127.0.0.1"
    metrics_dir: Path = VAR_DIR / "metrics"
    # "text" (the default) or "json": one JSON object a line.
    log_format: Literal["text", "json"] = "text"
    # Errors go to Sentry while the DSN is set (personal data scrubbed first).
    sentry_dsn: str = ""
    # Key rotation: earlier data keys (base64, comma-separated) still read what they encrypted
    # until `servicematch keys rotate` has re-encrypted it; earlier secret keys still verify links.
    data_keys_old: str = ""
    secret_keys_old: str = ""

    @field_validator("data_key")
    @classmethod
    def _refuse_a_malformed_data_key(cls, value: str) -> str:
        # In every environment: a key that cannot be read would fail every lead, not the start.
        if value:
            try:
                decode_data_key(value)
            except ValueError as exc:
                raise ValueError(f"{exc} (32 random bytes in base64 are expected; make one with: "
                                 "python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())')"
                                 ) from None
        return value

    @field_validator("data_keys_old")
    @classmethod
    def _refuse_a_malformed_old_data_key(cls, value: str) -> str:
        # In every environment, production included: what that key encrypted could not be read,
        # and `keys rotate` could not re-encrypt it.
        from servicematch.kernel.keys import decode_old_data_keys

        try:
            decode_old_data_keys(value)
        except ValueError as exc:
            raise ValueError(f"{exc} (each earlier key is 32 bytes in base64, comma-separated)") from None
        return value

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> Settings:
        problems = [*self._short_lease(), *self._malformed_buyer_secret(), *self._topup_bounds(),
                    *(self.production_problems() if self.environment == "production" else [])]
        if problems:
            raise ValueError("\n".join(problems))
        return self

    def production_problems(self) -> list[str]:
        """Everything production refuses to start with, each a sentence naming its setting."""
        problems = []
        if self.secret_key in ("", DEFAULT_SECRET):
            problems.append("SERVICEMATCH_SECRET_KEY must be set to a private value in production "
                            f"(for example: {secrets.token_urlsafe(32)})")
        if not self.data_key:
            # A key file generated on one machine would leave other web processes unable to
            # read what it encrypted, and a lost file loses every lead's personal data.
            problems.append("SERVICEMATCH_DATA_KEY must be set in production (32 random bytes, base64): "
                            "the same key for every web process and worker")
        return [*problems, *self._weak_secrets(), *self._unsafe_buyer(), *self._default_origin(),
                *self._missing_mail(), *self._unverified_stripe()]

    def _unverified_stripe(self) -> list[str]:
        # Without the webhook's secret no event can be verified, so no card payment would ever be
        # credited: the money would be taken and the balance never rise.
        if self.stripe_secret_key and not self.stripe_webhook_secret:
            return [("SERVICEMATCH_STRIPE_WEBHOOK_SECRET must be set in production when "
                     "SERVICEMATCH_STRIPE_SECRET_KEY is set: card payments are credited only from Stripe's "
                     "signed events (the endpoint's signing secret, whsec_...)")]
        return []

    def _topup_bounds(self) -> list[str]:
        # In every environment: no amount would pass, so "Add funds" and every top-up would be refused.
        if self.topup_min_dollars > self.topup_max_dollars:
            return [(f"SERVICEMATCH_TOPUP_MIN_DOLLARS ({self.topup_min_dollars}) must not exceed "
                     f"SERVICEMATCH_TOPUP_MAX_DOLLARS ({self.topup_max_dollars})")]
        return []

    def _missing_mail(self) -> list[str]:
        # Without a mail server, consent receipts and privacy-request codes would only reach the
        # local mailbox on this machine: the consumer would never get them.
        if not self.smtp_host:
            return [("SERVICEMATCH_SMTP_HOST must be set in production: consent receipts, privacy "
                    "request codes and provider e-mails are sent through it")]
        return []

    def _default_origin(self) -> list[str]:
        # Canonical links, the sitemap and e-mailed links would all point at the developer's machine.
        if self.site_origin.rstrip("/") == DEFAULT_SITE_ORIGIN:
            return [("SERVICEMATCH_SITE_ORIGIN must be set to the site's public origin in production "
                    "(for example https://www.example.com): canonical links and the sitemap use it")]
        return []

    def _short_lease(self) -> list[str]:
        # In every environment, and the worker's own rule (delivery/worker.py): refused there, the
        # site would start and take leads while its worker died at every restart.
        if self.delivery_lease_seconds <= self.delivery_timeout_seconds:
            return [(f"SERVICEMATCH_DELIVERY_LEASE_SECONDS ({self.delivery_lease_seconds}) must exceed "
                     f"SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS ({self.delivery_timeout_seconds:g}): a delivery is "
                     "claimed for the lease, and one claimed for less than an attempt may take could be sent "
                     "again by another worker while the first is still sending it")]
        return []

    def _malformed_buyer_secret(self) -> list[str]:
        # In every environment: a whsec_ secret that is not one would sign with another key than
        # the buyer derives from it.
        from servicematch.outbound.signing import secret_problem

        problem = secret_problem(self.buyer_secret)
        return [f"SERVICEMATCH_BUYER_SECRET: {problem}"] if problem else []

    def _weak_secrets(self) -> list[str]:
        problems = []
        if self.buyer_url and not self.buyer_secret:
            problems.append("SERVICEMATCH_BUYER_SECRET must be set in production when "
                            "SERVICEMATCH_BUYER_URL is set: leads are never sent unsigned")
        named = {"SERVICEMATCH_SECRET_KEY": self.secret_key, "SERVICEMATCH_ADMIN_TOKEN": self.admin_token,
                 "SERVICEMATCH_BUYER_SECRET": self.buyer_secret}
        # An earlier secret still verifies links and tokens: the public default would let anyone forge them.
        earlier = [value.strip() for value in self.secret_keys_old.split(",") if value.strip()]
        if DEFAULT_SECRET in earlier:
            problems.append("SERVICEMATCH_SECRET_KEYS_OLD must not hold the development default secret in production")
        if any(len(value.encode()) < MIN_SECRET_BYTES for value in earlier if value != DEFAULT_SECRET):
            problems.append(f"every SERVICEMATCH_SECRET_KEYS_OLD entry must be at least {MIN_SECRET_BYTES} bytes "
                            "in production")
        # An empty admin token or buyer secret is "off", which other checks judge; so is the default secret.
        short = [name for name, value in named.items()
                 if value and value != DEFAULT_SECRET and len(value.encode()) < MIN_SECRET_BYTES]
        if short:
            problems.append(f"{', '.join(short)} must be at least {MIN_SECRET_BYTES} bytes in production "
                            f"(for example: {secrets.token_urlsafe(32)})")
        return problems

    @property
    def api_docs_enabled(self) -> bool:
        return self.api_docs if self.api_docs is not None else self.environment != "production"

    def weaknesses(self) -> list[str]:
        """What production tolerates but an operator must hear about at every start."""
        found = []
        if not self.recaptcha_secret_key:
            found.append("reCAPTCHA is off (SERVICEMATCH_RECAPTCHA_SECRET_KEY is empty): "
                         "lead submissions are accepted without a bot check")
        if self.buyer_url and not self.buyer_name:
            found.append(UNNAMED_BUYER)
        # Refused in production (_unverified_stripe); elsewhere a warning, as a test setup may want it.
        found += self._unverified_stripe()
        if self.environment == "production" and self.allow_private_webhooks:
            # Allowed for receivers on a private network, but it also opens this machine and its
            # network to whatever URL a provider's webhook names.
            found.append("SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS is true in production: deliveries may go to plain "
                         "http:// URLs and to private, loopback and link-local addresses (this machine, its "
                         "network, cloud metadata)")
        return found

    def _unsafe_buyer(self) -> list[str]:
        # The buyer secret itself is required by _weak_secrets.
        problems = [UNNAMED_BUYER] if self.buyer_url and not self.buyer_name else []
        if self.buyer_url and not self.private_webhooks_allowed and not self.buyer_url.startswith("https://"):
            problems.append("SERVICEMATCH_BUYER_URL must be an https:// URL in production "
                            "(SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS=true overrides this)")
        return problems

    @property
    def private_webhooks_allowed(self) -> bool:
        """Whether deliveries may use plain http and reach private addresses."""
        if self.allow_private_webhooks is not None:
            return self.allow_private_webhooks
        return self.environment != "production"

    def derive_key(self, purpose: str) -> bytes:
        """A 32-byte key for one purpose (signing links, CSRF, ...), derived from secret_key with HKDF."""
        return derive_key(self.secret_key, purpose)

    @property
    def max_bid_cents(self) -> int:
        return round(self.max_bid * 100)

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    def public_config(self) -> dict[str, object]:
        """What the browser may know: public keys only, never secrets."""
        return {
            "brandName": self.brand_name,
            "siteOrigin": self.site_origin.rstrip("/"),
            "recaptchaSiteKey": self.recaptcha_site_key,
            "googleMapsApiKey": self.google_maps_api_key,
            "callTrackingScriptUrl": self.call_tracking_script_url,
            "pixelId": self.pixel_id,
            "trustedformEnabled": self.trustedform_enabled,
        }


def served_origin(host: str, port: int) -> str:
    """The origin of `servicematch serve --host --port` as a browser on this machine reaches it:
    what links in mail point to outside production when SERVICEMATCH_SITE_ORIGIN is not set."""
    shown = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


class SettingsError(Exception):
    """The configuration cannot start the service: every problem found, one line each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("the configuration is not valid:\n" + "\n".join(f"  {problem}" for problem in problems))
        self.problems = problems


def env_name(field: str) -> str:
    return f"SERVICEMATCH_{field.upper()}"


def _problems(error: ValidationError) -> tuple[list[str], set[str]]:
    """Pydantic's errors as lines naming the variable (never its value: it may be a secret), and
    the fields that could not be read."""
    lines, broken = [], set()
    for problem in error.errors():
        message = problem["msg"].removeprefix("Value error, ")
        location = problem.get("loc") or ()
        if location and location[0] in Settings.model_fields:
            broken.add(str(location[0]))
            lines.append(f"{env_name(str(location[0]))}: {message}")
        else:
            lines.extend(message.splitlines())  # the rules between settings, one sentence each
    return lines, broken


def load_settings(**values: object) -> Settings:
    """Settings from the environment (and .env), or SettingsError listing every problem at once."""
    try:
        return Settings(**values)
    except ValidationError as error:
        problems, broken = _problems(error)
    if broken:
        # The rules between settings only run once every field is read: judge them again with the
        # unreadable fields at their defaults, so their problems are listed now, not at the next start.
        defaults = {name: Settings.model_fields[name].get_default(call_default_factory=True) for name in broken}
        try:
            Settings(**{**values, **defaults})
        except ValidationError as again:
            named = tuple(env_name(name) for name in broken)
            problems += [line for line in _problems(again)[0] if line not in problems and not line.startswith(named)]
    raise SettingsError(problems)


# Variables with the prefix that are not settings: the test suite's own.
NOT_SETTINGS = frozenset({"SERVICEMATCH_TEST_DATABASES", "SERVICEMATCH_TEST_POSTGRES_URL"})


def unknown_variables(environ: Mapping[str, str | None]) -> list[str]:
    """A warning for each SERVICEMATCH_* variable that names no setting (a typo is otherwise ignored)."""
    known = {env_name(name) for name in Settings.model_fields}
    warnings = []
    for name in sorted(environ):
        upper = name.upper()
        if not upper.startswith("SERVICEMATCH_") or upper in known or upper in NOT_SETTINGS:
            continue
        guess = difflib.get_close_matches(upper, known, n=1) or sorted(k for k in known if k.startswith(upper))[:1]
        warnings.append(f"{name} is not a setting and is ignored" + (f" (did you mean {guess[0]}?)" if guess else ""))
    return warnings


@lru_cache
def get_settings() -> Settings:
    env_file = Path(".env")
    variables = {**(dotenv_values(env_file) if env_file.is_file() else {}), **os.environ}
    for warning in unknown_variables(variables):
        log.warning(warning)
    return load_settings()
