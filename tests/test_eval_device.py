"""`mobilegym eval --device`: the harness plays on an ADB device, here `serve-adb`'s simulated phone."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from mobilegym.adbd.server import AdbdServer
from mobilegym.eval.harness import ConfigError, EvalConfig
from mobilegym.device.sim import SimDevice

from .adb_support import ADB, AdbServer

pytestmark = pytest.mark.skipif(ADB is None, reason="the adb binary is not installed (apt-get install adb)")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def adb() -> Iterator[AdbServer]:
    server = AdbServer().start()
    yield server
    server.kill()


@pytest.fixture(scope="module")
def served(adb: AdbServer) -> Iterator[AdbdServer]:
    adbd = AdbdServer(SimDevice(apps=("clock", "answer_sheet", "settings"))).start()
    yield adbd  # not connected: the harness connects a HOST:PORT serial itself
    adb.cli("disconnect", adbd.serial)
    adbd.close()


def _eval(adb: AdbServer, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(adb.port)}
    return subprocess.run([sys.executable, "-m", "mobilegym", "eval", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=600)


def test_eval_plays_every_episode_on_the_adb_device(adb: AdbServer, served: AdbdServer, tmp_path: Path) -> None:
    out = tmp_path / "device"
    done = _eval(adb, "--task", "clock.CountAlarms", "--task", "settings.ToggleWifi", "--agent", "oracle",
                 "--device", served.serial, "--no-report", "--no-trajectories", "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(r["task_id"] for r in rows) == ["clock.CountAlarms", "settings.ToggleWifi"]
    assert all(r["success"] for r in rows), rows
    # the episodes ran on the served phone (its log shows the apps started), not in the eval process
    assert "com.mobilegym.clock" in str(list(served.logs)) and "com.mobilegym.settings" in str(list(served.logs))
    meta = json.loads((out / "meta.json").read_text())
    assert json.dumps(meta).count(served.serial) >= 1


def test_a_device_that_does_not_answer_is_named(adb: AdbServer, tmp_path: Path) -> None:
    done = _eval(adb, "--task", "clock.CountAlarms", "--device", "127.0.0.1:1", "--no-report",
                 "--out", str(tmp_path / "gone"))
    assert done.returncode != 0
    assert "127.0.0.1:1" in done.stderr + done.stdout


@pytest.mark.parametrize("options, message", [
    ({"device": "a b"}, "device must be an ADB serial"),
    ({"device": "emulator-5554", "concurrency": 2}, "one episode at a time"),
    ({"device": "emulator-5554", "env_url": "http://127.0.0.1:1"}, "choose one of device"),
])
def test_device_options_are_checked(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        EvalConfig(**options)
    assert EvalConfig(device="emulator-5554").env_kwargs("clock.CountAlarms")["device"] == {"serial": "emulator-5554"}


def test_a_stock_phone_names_the_missing_state_capability(adb: AdbServer, tmp_path: Path) -> None:
    plain = AdbdServer(SimDevice(apps=("settings",)), extensions=False).start()
    try:
        out = tmp_path / "stock"
        _eval(adb, "--task", "settings.ToggleWifi", "--device", plain.serial, "--no-report", "--out", str(out))
        row = json.loads((out / "results.jsonl").read_text().splitlines()[0])
        assert row["error_kind"] == "task_error" and "lacks the 'state' capability" in row["error"]
    finally:
        adb.cli("disconnect", plain.serial)
        plain.close()
