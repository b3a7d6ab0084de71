"""How the Lighthouse audit measures again on a slow host: no browser, Lighthouse's reports stood in."""

from __future__ import annotations

from pathlib import Path

import lighthouse_audit
import pytest
from lighthouse_audit import audit_page, calibrated_cpu_slowdown


@pytest.mark.parametrize(("index", "slowdown"), [(2000, 4.0), (1500, 4.0), (1200, 3.2), (900, 2.4), (300, 1.0), (0, 4.0)])
def test_the_slowdown_is_scaled_by_a_slow_hosts_index_and_never_above_lighthouses_default(index, slowdown):
    assert calibrated_cpu_slowdown(index) == slowdown


def _report(performance: float, benchmark_index: float, cpu_slowdown: float) -> dict:
    return {
        "audits": {},
        "categories": {name: {"score": score, "auditRefs": []} for name, score in
                       {"performance": performance, "accessibility": 1, "best-practices": 1, "seo": 1}.items()},
        "environment": {"benchmarkIndex": benchmark_index},
        "configSettings": {"throttling": {"cpuSlowdownMultiplier": cpu_slowdown}},
    }


def test_a_run_under_the_bar_on_a_slow_host_is_measured_again_with_the_calibrated_slowdown(monkeypatch, tmp_path: Path):
    asked = []

    def run_once(*, url: str, output: Path, cpu_slowdown: float) -> dict:
        asked.append(cpu_slowdown)
        return _report(0.92 if len(asked) == 1 else 0.97, 900, cpu_slowdown)

    monkeypatch.setattr(lighthouse_audit, "_run_once", run_once)
    result = audit_page(base_url="http://127.0.0.1:1", path="/legal/auto-accident/tx", output_dir=tmp_path)
    assert asked == [4.0, 2.4]
    assert (result.scores["performance"], result.benchmark_index, result.cpu_slowdown, result.runs) == (97, 900, 2.4, 2)


def test_on_a_fast_host_a_run_under_the_bar_is_measured_again_at_the_default(monkeypatch, tmp_path: Path):
    asked = []

    def run_once(*, url: str, output: Path, cpu_slowdown: float) -> dict:
        asked.append(cpu_slowdown)
        return _report(0.90, 1700, cpu_slowdown)

    monkeypatch.setattr(lighthouse_audit, "_run_once", run_once)
    result = audit_page(base_url="http://127.0.0.1:1", path="/", output_dir=tmp_path)
    assert asked == [4.0, 4.0, 4.0]
    assert result.shortfalls() and result.cpu_slowdown == 4.0
