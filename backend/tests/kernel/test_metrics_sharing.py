"""Processes of one deployment count into one directory, and any of them answers for all.

Each writer here is a real process (sharing switches a process for good, so never this one): it
joins the directory, counts, then scrapes, or waits to be told to.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from servicematch.kernel import metrics

BACKEND = Path(metrics.__file__).resolve().parents[2]
WRITER = """
import sys
from pathlib import Path
from servicematch.kernel import metrics
directory, kind, leads, wait = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "wait"
metrics.share_metrics_in(Path(directory), process_kind=kind)
for _ in range(leads):
    metrics.count_lead("accepted")
print("ready", flush=True)
if wait:
    sys.stdin.readline()
sys.stdout.write(metrics.exposition().decode())
"""


def _environment() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != metrics.DIRECTORY_VARIABLE}


class Writer:
    """A process that joined `directory` and counted `leads` accepted leads; alive until `scrape`."""

    def __init__(self, directory: Path, kind: str, leads: int) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", WRITER, str(directory), kind, str(leads), "wait"],
                                        cwd=BACKEND, env=_environment(), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout.readline().strip() == "ready"

    def scrape(self) -> str:
        out, _ = self.process.communicate("\n", timeout=60)
        return out


def run_writer(directory: Path, kind: str, leads: int) -> str:
    """A writer that counts, scrapes and exits at once; its scrape."""
    done = subprocess.run([sys.executable, "-c", WRITER, str(directory), kind, str(leads), "now"], cwd=BACKEND,
                          env=_environment(), capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.split("ready\n", 1)[1]


def sample(text: str, name: str, **labels: str) -> float:
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and found.labels == labels:
                return found.value
    return 0.0


def test_the_counts_of_live_processes_add_up_in_one_scrape(tmp_path):
    web = Writer(tmp_path, "web", leads=2)
    text = run_writer(tmp_path, "worker", leads=3)
    assert sample(text, "servicematch_leads_total", outcome="accepted") == 5
    assert sample(text, "servicematch_processes", kind="web") == 1
    assert sample(text, "servicematch_processes", kind="worker") == 1
    # The web process, still running, answers for both; the worker has stopped meanwhile.
    text = web.scrape()
    assert sample(text, "servicematch_leads_total", outcome="accepted") == 5
    assert sample(text, "servicematch_processes", kind="worker") == 0


def test_a_stopped_process_keeps_its_counts_until_the_deployment_starts_again(tmp_path):
    web = Writer(tmp_path, "web", leads=1)
    run_writer(tmp_path, "web", leads=4)
    second_web = Writer(tmp_path, "web", leads=0)
    # Joined while one writer runs: the stopped one's counter stays (a falling sum reads as a reset).
    assert sample(second_web.scrape(), "servicematch_leads_total", outcome="accepted") == 5
    web.scrape()
    # Nobody runs now: the next writer starts afresh, from its own counts only.
    text = run_writer(tmp_path, "web", leads=1)
    assert sample(text, "servicematch_leads_total", outcome="accepted") == 1
    assert sample(text, "servicematch_processes", kind="web") == 1


def _dead_pid() -> int:
    finished = subprocess.Popen([sys.executable, "-c", "pass"])
    finished.wait()
    return finished.pid


def test_only_the_clients_own_value_files_are_ever_removed(tmp_path):
    dead = _dead_pid()
    kept = [tmp_path / "servicematch.db", tmp_path / "notes.txt", tmp_path / f"backup_{dead}.db"]
    for path in [*kept, tmp_path / f"counter_{dead}.db", tmp_path / f"gauge_livesum_{dead}.db"]:
        path.write_bytes(b"")
    assert metrics.clear_values(tmp_path) == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(path.name for path in kept)


def test_a_dead_writers_gauges_are_dropped_and_its_counters_kept(tmp_path):
    dead, alive = _dead_pid(), os.getppid()
    for name in (f"counter_{dead}.db", f"gauge_livesum_{dead}.db", f"counter_{alive}.db",
                 f"gauge_livesum_{alive}.db"):
        (tmp_path / name).write_bytes(b"")
    assert metrics.live_writers(tmp_path) == {alive}
    assert metrics.prune_dead_writers(tmp_path) == {dead}
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(
        [f"counter_{dead}.db", f"counter_{alive}.db", f"gauge_livesum_{alive}.db"])


def test_a_process_that_counted_in_memory_cannot_start_sharing(tmp_path):
    script = ("import sys; from pathlib import Path; from servicematch.kernel import metrics\n"
              "metrics.count_lead('accepted')\n"
              "try:\n    metrics.share_metrics_in(Path(sys.argv[1]), process_kind='web')\n"
              "except RuntimeError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], cwd=BACKEND, env=_environment(),
                          capture_output=True, text=True, timeout=60, check=True)
    assert "counted before share_metrics_in" in done.stdout
    assert not any(tmp_path.iterdir())


def test_a_process_started_by_a_writer_writes_to_the_same_directory(tmp_path):
    # The worker `serve` spawns inherits PROMETHEUS_MULTIPROC_DIR: it counts into the directory
    # without joining it itself.
    script = ("import multiprocessing, sys; from pathlib import Path; from servicematch.kernel import metrics\n"
              "def child():\n    from servicematch.kernel import metrics\n    metrics.count_lead('invalid')\n"
              "if __name__ == '__main__':\n"
              "    metrics.share_metrics_in(Path(sys.argv[1]), process_kind=sys.argv[2])\n"
              "    process = multiprocessing.get_context('spawn').Process(target=child)\n"
              "    process.start(); process.join()\n"
              "    sys.stdout.write(metrics.exposition().decode())\n")
    entry = tmp_path / "spawning.py"
    entry.write_text(script)
    done = subprocess.run([sys.executable, str(entry), str(tmp_path / "metrics"), "web"], cwd=BACKEND,
                          env=_environment(), capture_output=True, text=True, timeout=60, check=True)
    assert sample(done.stdout, "servicematch_leads_total", outcome="invalid") == 1
