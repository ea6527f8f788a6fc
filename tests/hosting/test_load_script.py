"""benchmarks/load_site.py stays bounded (loopback only, capped) and still runs."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "load_site.py"


@pytest.fixture(scope="module")
def load_site():
    spec = importlib.util.spec_from_file_location("load_site", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_site"] = module  # dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("load_site", None)


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", "127.0.0.2"])
def test_loopback_hosts_are_accepted(load_site, host):
    assert load_site.loopback_only(host) == host


@pytest.mark.parametrize("host", ["192.0.2.10", "10.0.0.1", "0.0.0.0", "2001:db8::1"])
def test_other_hosts_are_refused(load_site, host):
    with pytest.raises(SystemExit, match="loopback addresses only"):
        load_site.loopback_only(host)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--duration", "61"], "--duration 61 is above the cap"),
        (["--clients", "401"], "--clients 401 is above the cap"),
        (["--players", "10000"], "--players 10000 is above the cap"),
        (["--workers", "9"], "--workers 9 is above the cap"),
        (["--duration", "0"], "must be positive"),
        (["--host", "192.0.2.10"], "loopback addresses only"),
        (["--db", "postgres", "--pg-admin", "postgres://u@192.0.2.10:5432/postgres"], "loopback addresses only"),
    ],
)
def test_out_of_bounds_runs_are_refused_before_anything_starts(load_site, argv, message):
    with pytest.raises(SystemExit, match=message):
        load_site.main(argv)


def test_staggered_spectators_arrive_spread_over_one_pause(load_site):
    offsets = [load_site.arrival_offset(i, 4, 30.0, True) for i in range(4)]
    assert offsets == [0.0, 7.5, 15.0, 22.5]
    assert [load_site.arrival_offset(i, 4, 30.0, False) for i in range(4)] == [0.0] * 4
    with pytest.raises(SystemExit, match="--duration 61 is above the cap"):  # the option is parsed
        load_site.main(["--scenario", "crowd", "--think", "30", "--stagger", "--duration", "61"])


def test_a_short_run_on_sqlite_reports_both_scenarios(tmp_path):
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--duration", "1", "--clients", "2", "--workers", "1", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(out.read_text())
    by_name = {(r["scenario"], r["kind"]): r for r in figures["results"]}
    assert set(by_name) == {("standings", "standings"), ("results", "result")}
    for r in by_name.values():
        assert r["requests"] > 0 and r["http_errors"] == 0 and r["req_per_s"] > 0
        assert r["p50_ms"] <= r["p95_ms"] <= r["p99_ms"] <= r["max_ms"]
    assert by_name[("results", "result")]["ok"] > 0
    assert "| standings | standings |" in done.stdout and "sqlite" in done.stdout


def test_a_short_crowd_run_reports_spectators_and_the_arbiter(tmp_path):
    """Spectators read and poll the pages while the arbiter enters results (through the
    compose stack's nginx when it is installed)."""
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--scenario", "crowd", "--duration", "3", "--clients", "3", "--workers", "1",
         "--arbiter-pause", "0.1", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    kinds = {r["kind"]: r for r in json.loads(out.read_text())["results"]}
    assert {"home", "standings", "round", "poll", "result"} <= set(kinds), kinds
    assert kinds["result"]["ok"] > 0 and all(r["http_errors"] == 0 for r in kinds.values())
    # and the app's own time for what reached it (gunicorn's access log), the arbiter's apart
    inside = {r["kind"]: r for r in json.loads(out.read_text())["app"]}
    assert inside["result"]["requests"] > 0 and inside["result"]["p50_ms"] <= inside["result"]["max_ms"]
    assert "arbiter's round" in inside and "Inside the app" in done.stdout
