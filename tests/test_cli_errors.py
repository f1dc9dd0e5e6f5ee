"""The command line's error paths: usage errors exit 2 with one line and no traceback, a closed pipe
ends quietly, progress is plain lines off a terminal, and oracle speaks JSON."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mobilegym import __version__
from mobilegym.cli import main


def run(*args: str, shell: str | None = None) -> subprocess.CompletedProcess:
    command = shell if shell is not None else [sys.executable, "-m", "mobilegym", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, shell=shell is not None)


def test_version_and_python_dash_m() -> None:
    done = run("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"mobilegym {__version__}"
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0


@pytest.mark.parametrize("argv, words", [
    (["demo", "--scale", "3"], "--scale: 3 is not in (0, 1]"),
    (["demo", "--scale", "nan"], "--scale"),
    (["demo", "--seed", "-1"], "--seed"),
    (["serve-adb", "--port", "99999"], "--port: 99999 is not in [0, 65535]"),
    (["serve-adb", "--render-scale", "0"], "--render-scale"),
    (["serve-adb", "--width", "10"], "--width"),
    (["oracle", "--seeds", "0"], "--seeds"),
])
def test_bad_option_values_are_usage_errors(argv: list[str], words: str, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


@pytest.mark.parametrize("argv, words", [
    (["list", "--suite", "nope"], "unknown suite 'nope'"),
    (["list", "--app", "nope"], "unknown app 'nope'"),
    (["oracle", "--suite", "clock", "--suite", "nope"], "unknown suite 'nope'"),
    (["demo", "--task", "no.SuchTask", "--out", "/tmp/mobilegym-cli-test"], "unknown task or suite 'no.SuchTask'"),
    (["demo", "--task", "settings.ToggleWif", "--out", "/tmp/mobilegym-cli-test"],
     "unknown task or suite 'settings.ToggleWif'; did you mean settings.ToggleWifi"),
    (["eval", "--suite", "clock", "--filter", "difficuly=L1", "--out", "/tmp/mobilegym-cli-test-eval"],
     "unknown filter key 'difficuly'; did you mean difficulty? (the tasks' metadata keys: app, "),
])
def test_unknown_names_exit_2_with_one_line(argv: list[str], words: str, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "known:" in err or "did you mean" in err or "metadata keys" in err or argv[0] == "demo"


def test_a_closed_pipe_ends_the_output_quietly() -> None:
    done = run(shell=f"{sys.executable} -m mobilegym list | head -3")
    assert done.stdout.count("\n") == 3
    assert "BrokenPipeError" not in done.stderr and "Traceback" not in done.stderr and "Exception" not in done.stderr


def test_oracle_json_and_plain_progress_off_a_terminal() -> None:
    done = run("oracle", "--suite", "home", "--seeds", "1", "--mode", "text", "--json")
    report = json.loads(done.stdout)
    assert set(report) == {"suites", "total", "tasks", "failures"}
    assert report["total"]["tasks"] == len(report["tasks"]) >= 1
    assert report["total"]["passed"] + report["total"]["failed"] == report["total"]["tasks"]
    assert done.returncode == (0 if not report["failures"] else 1)
    assert "\r" not in done.stderr and done.stderr.strip().splitlines()[-1].endswith("done")
