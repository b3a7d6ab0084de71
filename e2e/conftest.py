"""Browser tests: the real server (built site + API) on a free port, driven by Debian's Chromium."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from _pytest.nodeid import NodeId
from browser_context import new_shared_context, reset_context
from console_support import Operators, create_operators
from funnel_steps import forget_lead_status, wait_until_interactive, watch_lead_status
from playwright.sync_api import BrowserContext
from privacy_server import PrivacyServer, start_privacy_server
from site_paths import ARTIFACTS, STATIC_DIR, server_log
from sqlalchemy import Engine, create_engine

from servicematch.devserver import ServerDidNotStart, start_server, stop_server

# Tests submit fictional phone numbers (555-0100 to 555-0199) and forms without the browser's
# timing, which the quality gate rightly scores low: here it scores and reports, but holds nothing,
# unless a test asks for holds itself (backend/tests/quality, the held-lead tests). Set in the
# environment, so servers and workers the tests start inherit it too.
os.environ.setdefault("SERVICEMATCH_QUALITY_HOLD_BELOW", "0")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def server_database_url(tmp_path_factory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('e2e') / 'servicematch.db'}"


@pytest.fixture(scope="session")
def server_mail_dir(tmp_path_factory) -> Path:
    """The live server's local mailbox (no SMTP host): consent receipts, portal mail; the tests read it."""
    return tmp_path_factory.mktemp("mail")


@pytest.fixture(scope="session")
def live_server(server_database_url: str, server_mail_dir: Path) -> Iterator[str]:
    """`servicematch serve` as a user runs it, on its own port and database."""
    if not (STATIC_DIR / "index.html").is_file():
        pytest.fail(f"{STATIC_DIR} is missing: run `make build` (make test does) before browser tests")
    port = _free_port()
    env = {
        **os.environ,
        "SERVICEMATCH_DATABASE_URL": server_database_url,
        "SERVICEMATCH_ENVIRONMENT": "test",
        "SERVICEMATCH_SITE_ORIGIN": f"http://127.0.0.1:{port}",
        # Every browser test submits from 127.0.0.1; the per-IP limit is for real visitors.
        "SERVICEMATCH_SUBMIT_RATE_LIMIT": "10000",
        "SERVICEMATCH_EVENTS_RATE_LIMIT": "100000",
        "SERVICEMATCH_PARTNER_APPLICATION_RATE_LIMIT": "1000",
        "SERVICEMATCH_MAIL_DIR": str(server_mail_dir),
        # Its own metric files, not a developer's var/metrics.
        "SERVICEMATCH_METRICS_DIR": str(server_mail_dir.parent / "metrics"),
        "SERVICEMATCH_STATIC_DIR": str(STATIC_DIR),
        "HOST": "127.0.0.1",
        "PORT": str(port),
    }
    log = server_log("server")
    base_url = f"http://127.0.0.1:{port}"
    with log.open("w") as out:
        try:
            process = start_server(env=env, base_url=base_url, output=out)
        except ServerDidNotStart as failure:
            pytest.fail(f"{failure}; see {log}")
        yield base_url
        stop_server(process)


@pytest.fixture(scope="session")
def server_engine(server_database_url: str, live_server: str) -> Iterator[Engine]:
    """Read what the server stored, as the tests check leads in the database."""
    engine = create_engine(server_database_url)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def operators(server_database_url: str, live_server: str) -> Operators:
    """An admin and an analyst of the live server, made once per worker through the CLI as an
    operator would. Each `servicematch operators add` costs about 1.3 s of CPU (imports, password
    hashing); a dozen modules and tests made operators of their own, and a module's are made again
    on each worker its tests reach, and each time a worker comes back to it.
    A test that changes an operator (a second factor, a failed sign-in) undoes it or stays within
    what the next test allows."""
    return create_operators(server_database_url)


@pytest.fixture(scope="session")
def shared_privacy_server(tmp_path_factory) -> Iterator[Callable[[str], PrivacyServer]]:
    """`shared_privacy_server(backend)`: the server with its own buyer, provider webhook and SMTP server
    (privacy_server.py) on a database of that backend, started the first time a test of this
    worker asks for it and shared by every module that uses one.

    Starting one takes some 8 s on a quiet machine and 25-75 s on a busy one (its receivers,
    `servicematch migrate` and the providers, the server and its worker process, and for
    PostgreSQL a new database): started per module, and again each time a worker came back to a
    module, it was half of these tests' time. The modules that
    use it are marked `xdist_group("privacy-<backend>")`, so that with `--dist loadgroup`
    (pyproject.toml) one worker runs them all on one server. Their tests tell their own leads apart
    (a phone number and an address of their own), and one that changes the receivers puts them back.
    """
    started: dict[str, PrivacyServer] = {}

    def get(backend: str) -> PrivacyServer:
        if backend not in started:
            started[backend] = start_privacy_server(
                backend=backend, workdir=tmp_path_factory.mktemp(f"privacy-{backend}"), static_dir=STATIC_DIR,
                log=server_log(f"privacy-server-{backend}"))
        return started[backend]

    yield get
    for server in started.values():
        server.stop()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "clock_installed: shares a browser context whose clock Playwright drives at the real time's "
        "pace, so that thank_you_heading (funnel_steps.py) can move it past the thank-you page's loader once "
        "routing has finished (e2e/conftest.py's `context`)")


@pytest.hookimpl(trylast=True)  # after pytest's ordering by parametrised fixtures, and after xdist's hook
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Backend tests first, then the browser tests that share a server of their own (marked
    xdist_group), then those marked `long`, then the other browser tests.

    With `--dist loadgroup` a group is one unit of work for one worker: handed out last, it would
    keep that worker busy for minutes after the others ran out of tests; first, it runs while the
    other workers share the rest. The same holds, in seconds, for a long test. Backend tests stay
    before every browser test: a worker that has started Playwright's event loop cannot run the
    asyncio tests after it.
    """
    if getattr(config.option, "loadgroup", False):  # set on xdist's workers under --dist loadgroup
        _name_the_groups(items)
    browser_tests = Path(__file__).parent

    def rank(item: pytest.Item) -> int:
        if not item.path.is_relative_to(browser_tests):
            return 0
        if item.get_closest_marker("xdist_group"):
            return 1
        return 2 if item.get_closest_marker("long") else 3

    items.sort(key=rank)  # stable: the order within each part is kept


def _name_the_groups(items: list[pytest.Item]) -> None:
    """Give each grouped test the id xdist means it to have, "<id>@<group>", by which its scheduler
    groups the tests.

    xdist 3.8 writes it to `item._nodeid`, which pytest 9.2 no longer reads (it keeps a structured
    id in `item._id`), so the groups were silently ignored: pytest-dev/pytest-xdist#1386. Nothing
    is done where xdist's own id took.
    """
    for item in items:
        names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                        for mark in item.iter_markers("xdist_group")})
        suffix = "@" + "_".join(names)
        if names and not item.nodeid.endswith(suffix) and hasattr(item, "_id"):
            item._id = NodeId.parse(item.nodeid + suffix)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    }


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    """pytest-playwright resolves relative page.goto() paths against this."""
    return live_server


@pytest.fixture(params=[PHONE, DESKTOP], ids=["phone", "desktop"])
def viewport(request) -> dict[str, int]:
    return request.param


@pytest.fixture
def browser_context_args(browser_context_args, viewport, base_url):
    # pytest-playwright's session-wide arguments keep the base_url of whichever module asked first;
    # modules with servers of their own (base_url None) must not leave theirs to the others.
    args = {**browser_context_args, "viewport": viewport}
    if base_url:
        args["base_url"] = base_url
    else:
        args.pop("base_url", None)
    return args


@pytest.fixture(scope="session")
def _reused_contexts(browser) -> Iterator[dict[str, BrowserContext]]:
    contexts: dict[str, BrowserContext] = {}
    yield contexts
    for context in contexts.values():
        context.close()


@pytest.fixture
def context(browser, browser_context_args, _reused_contexts, request) -> Iterator[BrowserContext]:
    """A browser context shared by the tests of this worker that ask for the same arguments, left
    as a new one would be after each: no cookie, stored value, permission or route, and no page
    but the blank one it keeps open. Its HTTP cache stays, as a returning visitor's would.

    A new context per test (pytest-playwright's) costs Chromium about 0.45 s of CPU, most of it
    starting the context's first renderer process; a new page in a used context about 0.15 s.
    Browser tests are most of `make test`'s time, and the machines have two cores.

    Playwright's clock (page.clock) belongs to the context and cannot be taken back: a test that
    fixes it is marked `clock_fixed_at(when)` and shares a context fixed at that time, or
    `own_context` for a context of its own, closed after it. A test marked `clock_installed`
    shares a context whose clock Playwright drives at the real time's pace, which may be moved
    forward (funnel_steps.thank_you_heading) and is set back to the real time after each test.
    """
    if request.node.get_closest_marker("own_context"):
        own = browser.new_context(**browser_context_args)
        yield own
        own.close()
        return
    clock = request.node.get_closest_marker("clock_fixed_at")
    fixed_at: datetime | None = clock.args[0] if clock else None
    installed = fixed_at is None and request.node.get_closest_marker("clock_installed") is not None
    key = repr((sorted(browser_context_args.items()), fixed_at, installed))
    reused = _reused_contexts.get(key)
    if reused is None:
        reused = _reused_contexts[key] = new_shared_context(browser, **browser_context_args)
        if fixed_at is not None:
            reused.clock.set_fixed_time(fixed_at)
        elif installed:
            reused.clock.install()
            watch_lead_status(reused)
    yield reused
    try:
        reset_context(reused, fixed_at)
        if installed:
            reused.clock.set_system_time(datetime.now(UTC))
            forget_lead_status(reused)
    except BaseException:
        # A context that could not be reset, or whose clock a test set, serves no later test.
        del _reused_contexts[key]
        reused.close()
        raise


@pytest.fixture
def page(page):
    """pytest-playwright's page, whose goto() also waits until React has taken over a public page.

    Until then the page is the HTML rendered at build time: links work and fields keep what is
    typed, but a tap on a button does nothing, which a person tapping a second later never sees
    and a test acting within milliseconds would. Pages the build did not render have nothing to
    tap before React draws them; goto(..., wait_until="commit") does not wait, for the tests of
    that very moment.
    """
    plain_goto = page.goto

    def goto(url: str, **kwargs):
        response = plain_goto(url, **kwargs)
        if kwargs.get("wait_until") != "commit" and page.evaluate(
                "() => !!document.getElementById('root')?.hasAttribute('data-prerendered')"):
            wait_until_interactive(page)
        return response

    page.goto = goto
    return page


@pytest.fixture
def save_screenshot():
    """Save a full-page screenshot under e2e/artifacts/ (not committed) for a person to look at."""

    def save(page, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        width = page.viewport_size["width"] if page.viewport_size else 0
        path = ARTIFACTS / f"{name}-{width}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the Lighthouse scores (test_lighthouse.py) at the end of the run, passed or failed."""
    from lighthouse_audit import AUDITED_PATHS, LighthouseResult, score_table

    results = [
        LighthouseResult(**value)
        for reports in (terminalreporter.stats.get("passed", []), terminalreporter.stats.get("failed", []))
        for report in reports
        if report.when == "call"
        for name, value in report.user_properties
        if name == "lighthouse"
    ]
    if results:
        results.sort(key=lambda result: AUDITED_PATHS.index(result.path))
        terminalreporter.write_sep("=", "Lighthouse scores (mobile)")
        terminalreporter.write_line(score_table(results))
