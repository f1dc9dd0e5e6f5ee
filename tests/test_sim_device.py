"""SimDevice makes the simulated phone a Device: capabilities, an injected shell and app preparers, while the
Phone itself knows nothing of devices."""
from __future__ import annotations

import importlib
import pickle
import random
import sys

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.device.base import CAP_PREPARE, CAP_SHELL, CAP_STATE, Device
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone


class _EchoShell:
    """A shell that counts the sessions it was built for and echoes its command lines."""

    built = 0

    def __init__(self, phone: Phone) -> None:
        type(self).built += 1
        self.phone = phone

    def run(self, line: str):  # noqa: ANN201
        return type("Result", (), {"output": f"ran {line}".encode()})()


def test_the_phone_is_no_device_and_the_sim_device_is_one() -> None:
    assert not hasattr(Phone, "capabilities") and not hasattr(Phone, "shell")
    device = SimDevice(270, 600)
    assert isinstance(device, Phone) and isinstance(device, Device)
    assert {CAP_STATE, CAP_SHELL, CAP_PREPARE} <= device.capabilities


def test_the_default_shell_is_adbds_android_shell() -> None:
    device = SimDevice(270, 600)
    assert device.shell("echo hello") == "hello\n"
    assert "package:com.mobilegym.clock" in device.shell("pm list packages")


def test_an_injected_shell_runs_and_a_reset_starts_a_new_session() -> None:
    _EchoShell.built = 0
    device = SimDevice(270, 600, shell_factory=_EchoShell)
    assert device.shell("ls") == "ran ls" and device.shell("pwd") == "ran pwd"
    assert _EchoShell.built == 1
    device.reset_state(1)
    device.shell("ls")
    assert _EchoShell.built == 2


def test_pickles_and_forks_carry_no_shell_session_and_build_their_own() -> None:
    device = SimDevice(270, 600)
    device.shell("cd /sdcard")
    for twin in (pickle.loads(pickle.dumps(device)), device.fork()):
        assert type(twin) is SimDevice and twin._shell is None
        assert twin.shell("echo again") == "again\n"
        assert twin.get_state() == device.get_state()


def test_prepare_patch_builds_the_preparers_patch_from_the_current_world() -> None:
    device = SimDevice(270, 600)
    device.reset_state(3)
    patch = device.prepare_patch("files", "trash", {}, rng=random.Random(1))
    assert set(patch) <= {"os", "apps"} and patch == device.prepare_patch("files", "trash", {}, rng=random.Random(1))
    with pytest.raises(ValueError, match="app 'files' has no preparer 'nope'; it has: .*trash"):
        device.prepare_patch("files", "nope", {}, rng=random.Random(1))
    with pytest.raises(ValueError, match="unknown app 'nope'"):
        device.prepare_patch("nope", "trash", {}, rng=random.Random(1))


def test_the_environment_plays_on_a_sim_device_and_varies_only_its_own_phone() -> None:
    env = gym.make("MobileGym-v0", task="clock.CountAlarms", obs_parts=("a11y",))
    assert type(env.unwrapped.device) is SimDevice
    given = gym.make("MobileGym-v0", task="clock.CountAlarms", obs_parts=("a11y",), device=SimDevice(270, 600))
    with pytest.raises(ValueError, match="variation needs the simulated phone"):
        given.reset(seed=0, options={"variation": {"language": "zh"}})


def test_the_old_app_states_path_still_imports_with_a_deprecation_warning() -> None:
    sys.modules.pop("mobilegym.sim.app_states", None)
    with pytest.warns(DeprecationWarning, match="mobilegym.app_states"):
        old = importlib.import_module("mobilegym.sim.app_states")
    from mobilegym.app_states import AppStates

    assert old.AppStates is AppStates
