"""JSON tasks on a device reached over ADB (the simulated phone served by adbd): shell, files, routes."""
from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401  (registers MobileGym-v0)
from mobilegym.device.adb import AdbDevice, make_adb_device
from mobilegym.judge.json.task import load_json_task
from mobilegym.adbd.server import AdbdServer
from mobilegym.sim.phone import Phone

from .adb_support import AdbServer, adb_server, requires_adb, served  # noqa: F401  (fixtures)

pytestmark = requires_adb


@pytest.fixture
def device(adb_server: AdbServer, served: AdbdServer) -> AdbDevice:
    served.phone.reset_state()
    return make_adb_device({"serial": served.serial, "port": adb_server.port, "timeout": 10})


def write(folder: Path, doc: dict) -> Path:
    path = folder / "adbsuite" / f"{doc['id']}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(doc))
    return path


SHELL_TASK = {
    "id": "shell_and_files",
    "instruction": "Turn Wi-Fi back on.",
    "related_apps": ["settings"],
    "expected_changes": [".wifi"],  # read through the shell, so no metric path names it
    "config": [
        {"type": "execute", "parameters": {"command": "settings put global wifi_on 0"}},
        {"type": "push_file", "parameters": {"path": "/sdcard/Download/notes.txt", "content": "wifi was turned off\n"}},
        {"type": "reset_app", "parameters": {"app": "clock"}},
        {"type": "open_app", "parameters": {"app": "settings"}},
    ],
    "evaluator": {
        "func": ["exact_match", "check_include_exclude", "contains", "exact_match"],
        "result": [
            {"type": "device_shell", "command": "settings get global wifi_on"},
            {"type": "device_shell", "command": "ls /sdcard/Download"},
            {"type": "device_file", "path": "/sdcard/Download/notes.txt"},
            {"type": "current_app"},
        ],
        "expected": [
            {"type": "rule", "value": "1"},
            {"type": "rule", "value": {"include": ["notes.txt"]}},
            {"type": "rule", "value": "turned off"},
            {"type": "rule", "value": "settings"},
        ],
    },
    "metadata": {"difficulty": "L1", "objective": "operate"},
}


def test_shell_files_and_state_over_adb(device: AdbDevice, served: AdbdServer, tmp_path: Path) -> None:
    episode = load_json_task(write(tmp_path, SHELL_TASK)).start(device, seed=3)
    assert served.phone.get_state()["apps"]["settings"]["wifi"] is False
    result = episode.evaluate(last_action="complete")
    assert result.error is None and not result.success
    assert result.checks == [{"field": "exact_match(device_shell settings get global wifi_on)", "expected": "1",
                              "actual": "0", "passed": False}]
    served.phone.set_state({"apps": {"settings": {"wifi": True}}})
    result = episode.evaluate(last_action="complete")
    assert result.success, result.checks


@pytest.mark.skipif(not hasattr(Phone, "launch"), reason="the simulated phone does not implement launch(app, route) yet")
def test_launch_opens_a_route_over_adb(device: AdbDevice, tmp_path: Path) -> None:
    doc = {"id": "edit_first_alarm", "instruction": "x", "related_apps": ["clock"],
           "config": [{"type": "launch", "parameters": {"app": "clock", "route": "/alarm/edit?id=alarm_1"}}],
           "evaluator": {"func": "exact_match", "result": {"type": "current_route", "without_query": True},
                         "expected": {"type": "rule", "value": "/alarm/edit"}},
           "metadata": {"difficulty": "L1", "objective": "operate"}}
    episode = load_json_task(write(tmp_path, doc)).start(device)
    assert episode.evaluate(last_action="complete").success


def test_a_json_task_through_gym_over_adb(adb_server: AdbServer, served: AdbdServer) -> None:
    env = gym.make("MobileGym-v0", task="settings.enable_nfc", obs_parts=("instruction",),
                   device={"serial": served.serial, "port": adb_server.port})
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step({"type": "abort", "text": "no NFC here"})
    assert terminated and reward == 1.0 and info["judge"]["error"] is None
