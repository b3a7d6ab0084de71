"""Runtime configuration, read from the environment (prefix SERVICEMATCH_)."""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parents[2]
VAR_DIR = PROJECT_ROOT / "var"
DEFAULT_SECRET = "dev-only-change-me"


class Settings(BaseSettings):
    """Every knob of the service; `.env.example` documents each one."""

    model_config = SettingsConfigDict(
        env_prefix="SERVICEMATCH_", env_file=".env", extra="ignore", frozen=True
    )

    environment: Literal["development", "test", "production"] = "development"
    secret_key: str = DEFAULT_SECRET
    database_url: str = f"sqlite:///{VAR_DIR / 'servicematch.db'}"
    site_origin: str = "http://127.0.0.1:8000"
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
    # Lead submissions allowed per client IP within the window.
    submit_rate_limit: int = Field(default=10, ge=1)
    submit_rate_window_seconds: int = Field(default=600, ge=1)
    duplicate_window_days: int = Field(default=30, ge=1)
    # How long the lead writer waits for more leads to share a transaction (0: never waits).
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
    admin_token: str = ""
    worker_enabled: bool = True
    worker_poll_seconds: float = Field(default=2.0, gt=0)
    worker_concurrency: int = Field(default=4, ge=1, le=64)
    delivery_lease_seconds: int = Field(default=60, ge=5)
    delivery_timeout_seconds: float = Field(default=10.0, gt=0)
    retry_base_seconds: float = Field(default=5.0, gt=0)
    retry_max_delay_seconds: float = Field(default=4 * 3600.0, gt=0)
    retry_window_hours: float = Field(default=24.0, gt=0)

    # Mounts POST /api/bench/insert, the baseline of bench/api_throughput.py. Off in real use.
    benchmark_routes: bool = False

    @model_validator(mode="after")
    def _refuse_default_secret_in_production(self) -> Settings:
        if self.environment == "production" and self.secret_key in ("", DEFAULT_SECRET):
            raise ValueError(
                "SERVICEMATCH_SECRET_KEY must be set to a private value in production "
                f"(for example: {secrets.token_urlsafe(32)})"
            )
        if self.environment == "production" and not self.data_key:
            # A key file generated on one machine would leave other web processes unable to
            # read what it encrypted, and a lost file loses every lead's personal data.
            raise ValueError(
                "SERVICEMATCH_DATA_KEY must be set in production (32 random bytes, base64): "
                "the same key for every web process and worker"
            )
        return self

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


@lru_cache
def get_settings() -> Settings:
    return Settings()
