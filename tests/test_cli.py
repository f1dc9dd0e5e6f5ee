"""The mobilegym command line."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from mobilegym.cli import main


def test_list_prints_every_task_with_metadata(capsys) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "settings.ToggleWifi" in out and "clock.lunch_alarm_time" in out
    line = next(l for l in out.splitlines() if l.startswith("calendar.EventFromMessage"))
    assert line.split()[1:4] == ["python", "operate", "L3"] and "calendar,messages" in line


def test_list_filters_and_json(capsys) -> None:
    assert main(["list", "--suite", "clock", "--objective", "query", "--json"]) == 0
    metas = json.loads(capsys.readouterr().out)
    assert metas and all(m["suite"] == "clock" and m["objective"] == "query" for m in metas)
    assert main(["list", "--kind", "json", "--app", "contacts"]) == 0
    out = capsys.readouterr().out
    assert "contacts.favorite_zoe" in out and "contacts.AddContact" not in out


def test_list_summary_counts_add_up(capsys) -> None:
    assert main(["list", "--summary"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = [c.strip() for c in lines[0].split("|")[1:-1]]
    rows = [dict(zip(header, (c.strip() for c in l.split("|")[1:-1]))) for l in lines[2:]]
    body, total = rows[:-1], {k: (v if k == "suite" else int(v)) for k, v in rows[-1].items()}
    assert total["suite"] == "**total**"
    assert sum(int(r["tasks"]) for r in body) == total["tasks"] >= 80
    assert total["python"] + total["json"] == total["tasks"]
    assert 15 <= total["high-risk"] < total["tasks"]  # deletions and messages to others
    assert 0 < total["3+ apps"] < total["cross-app"]  # chains of three apps are among the cross-app tasks


def test_demo_runs_and_records_an_episode(tmp_path: Path, capsys) -> None:
    assert main(["demo", "--task", "clock.CountAlarms", "--out", str(tmp_path), "--scale", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "instruction:" in out and "reward: 1" in out and "[PASS]" in out
    shots = sorted(tmp_path.glob("step_*.png"))
    log = [json.loads(l) for l in (tmp_path / "trajectory.jsonl").read_text().splitlines()]
    assert len(shots) == len(log) and log[0]["event"] == "reset" and log[-1]["judge"]["success"]


def test_demo_of_an_unknown_task_names_the_closest_ids(capsys) -> None:
    assert main(["demo", "--task", "clock.CountAlarm"]) == 2
    err = capsys.readouterr().err
    assert "unknown task or suite 'clock.CountAlarm'; did you mean clock.CountAlarms" in err
    assert "no scripted plan" not in err


def test_oracle_prints_a_per_suite_table(capsys) -> None:
    assert main(["oracle", "--suite", "settings", "--seeds", "1"]) == 0
    out = capsys.readouterr().out
    row = next(l for l in out.splitlines() if l.startswith("settings")).split()
    assert row[1] == row[2] and row[3] == "0"


def test_console_script_is_installed() -> None:
    result = subprocess.run(["mobilegym", "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    for command in ("demo", "list", "oracle", "serve-adb"):
        assert command in result.stdout
    bad = subprocess.run(["mobilegym", "list", "--difficulty", "L9"], capture_output=True, text=True)
    assert bad.returncode == 2 and "invalid choice: 'L9'" in bad.stderr
