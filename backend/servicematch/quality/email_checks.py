"""The e-mail checks: a throwaway domain, a desk's address, and (when asked for) a domain with no mail server."""

from __future__ import annotations

import logging
import threading

from disposable_email_domains import blocklist

from .reasons import EMAIL_DISPOSABLE, EMAIL_NO_MAIL_SERVER, EMAIL_ROLE

log = logging.getLogger("servicematch.quality")

# The package's list, as a frozenset made once (about 10,000 domains).
DISPOSABLE_DOMAINS = frozenset(blocklist)
# Local parts that name a desk or a machine, not a person (before any +tag).
ROLE_LOCAL_PARTS = frozenset({
    "abuse", "accounting", "accounts", "admin", "administrator", "billing", "careers", "contact",
    "customerservice", "do-not-reply", "donotreply", "enquiries", "feedback", "hello", "help", "helpdesk",
    "hostmaster", "hr", "info", "inquiries", "jobs", "legal", "mail", "marketing", "media", "no-reply",
    "noreply", "office", "orders", "postmaster", "press", "privacy", "reception", "sales", "security",
    "service", "support", "team", "webmaster",
})
# DNS answers are kept per domain, this many at most (the busiest domains are a handful).
MAIL_SERVER_CACHE_SIZE = 4096


def _split(email: str) -> tuple[str, str]:
    local, _, domain = email.strip().lower().rpartition("@")
    return local.split("+", 1)[0], domain


def is_disposable(domain: str) -> bool:
    """The domain or any domain it is under (x.mailinator.com) is on the throwaway list."""
    labels = domain.split(".")
    return any(".".join(labels[start:]) in DISPOSABLE_DOMAINS for start in range(len(labels) - 1))


def email_reasons(email: str) -> list[str]:
    """The offline reasons for an e-mail address (none for an empty one: the form may not ask)."""
    local, domain = _split(email)
    if not domain:
        return []
    reasons = [EMAIL_DISPOSABLE] if is_disposable(domain) else []
    if local in ROLE_LOCAL_PARTS:
        reasons.append(EMAIL_ROLE)
    return reasons


class MailServerCheck:
    """Whether an e-mail's domain accepts mail (an MX record, or the A/AAAA fallback), asked of DNS
    through email-validator's deliverability check. It needs dnspython, which is not installed by
    default: without it the check gives no verdict and says so once in the log."""

    def __init__(self, *, timeout_seconds: float) -> None:
        self.timeout_seconds = timeout_seconds
        self._verdicts: dict[str, bool] = {}
        self._lock = threading.Lock()
        self._warned = False

    def reasons(self, email: str) -> list[str]:
        domain = _split(email)[1]
        if not domain:
            return []
        missing = self._no_mail_server(domain)
        return [EMAIL_NO_MAIL_SERVER] if missing else []

    def _no_mail_server(self, domain: str) -> bool | None:
        with self._lock:
            if domain in self._verdicts:
                return self._verdicts[domain]
        try:
            from email_validator import EmailUndeliverableError
            from email_validator.deliverability import validate_email_deliverability
        except ImportError:
            if not self._warned:
                self._warned = True
                log.warning("SERVICEMATCH_QUALITY_EMAIL_DNS is on but dnspython is not installed: "
                            "e-mail domains are not looked up")
            return None
        try:
            found = validate_email_deliverability(domain, domain, timeout=max(1, round(self.timeout_seconds)))
        except EmailUndeliverableError:
            verdict = True
        except Exception as exc:  # noqa: BLE001 (a resolver failure is no verdict, never a refusal)
            log.info("the mail server of an e-mail domain could not be looked up: %s", type(exc).__name__)
            return None
        else:
            if "unknown-deliverability" in found:
                return None  # a timeout or an unreachable resolver: no verdict, and nothing kept
            verdict = False
        with self._lock:
            if len(self._verdicts) >= MAIL_SERVER_CACHE_SIZE:
                self._verdicts.clear()
            self._verdicts[domain] = verdict
        return verdict
