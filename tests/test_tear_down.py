"""BaseTask.tear_down: run once per episode, when the episode is left (the next reset, env.close()); a broken
tear-down is the task's error, reported, and neither stops the next episode nor counts against the agent."""
from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.device.base import DeviceError
from mobilegym.env import MobileGymEnv
from mobilegym.judge import CriteriaTask, PyTaskRef, TaskError
from tests.test_judge_fakes import FakeDevice

from .uitools import CORE_APPS

TORN: list[tuple[int, Any]] = []  # (episode seed, device) of each tear-down


def record(task: CriteriaTask, device: Any) -> None:
    TORN.append((task.seed, device))


def buggy(task: CriteriaTask, device: Any) -> None:
    record(task, device)
    raise KeyError("leftover")


def unplugged(task: CriteriaTask, device: Any) -> None:
    raise DeviceError("device offline")


def task_class(name: str, tear_down: Any) -> type[CriteriaTask]:
    """Wi-Fi in the requested state, with the given tear-down (a task inherits CriteriaTask directly)."""
    return type(name, (CriteriaTask,), {
        "suite": "demo", "app": "settings", "objective": "operate", "difficulty": "L1", "capabilities": ["toggle"],
        "templates": ["Turn Wi-Fi {wifi}"], "parameters": {"wifi": {"type": "bool", "values": {"on": True, "off": False}}},
        "criteria": {".wifi": "{wifi}"}, "tear_down": tear_down})


Tidy, Broken, Unplugged = task_class("Tidy", record), task_class("Broken", buggy), task_class("Unplugged", unplugged)


@pytest.fixture(autouse=True)
def no_tear_downs_yet() -> None:
    TORN.clear()


def make(task: type = Tidy) -> MobileGymEnv:
    return MobileGymEnv(task, obs_parts=("a11y",), apps=CORE_APPS)


def seeds() -> list[int]:
    return [seed for seed, _ in TORN]


def test_the_default_tear_down_does_nothing() -> None:
    class Plain(CriteriaTask):
        suite, app = "demo", "settings"
        objective, difficulty, capabilities = "operate", "L1", ["toggle"]
        templates = ["Wi-Fi off"]
        criteria = {".wifi": False}

    episode = PyTaskRef(Plain).start(FakeDevice(), seed=0, eval_mode="text")
    device = episode.device
    calls = list(device.calls)
    episode.tear_down()
    assert device.calls == calls


def test_it_runs_once_per_episode_on_reset_and_on_close() -> None:
    env = make()
    env.reset(seed=0)
    assert TORN == []  # nothing to leave on the first reset
    first = env.episode.task.seed
    env.step({"type": "complete"})  # an episode that ended ...
    env.reset(seed=1)
    assert seeds() == [first]  # ... is torn down when the next one starts, on its own phone
    assert TORN[0][1] is env.device
    second = env.episode.task.seed
    env.step({"type": "wait", "seconds": 1})  # one left half-way is torn down too
    env.reset(seed=2)
    assert seeds() == [first, second]
    third = env.episode.task.seed
    env.close()
    env.close()  # closing again tears nothing down twice
    assert seeds() == [first, second, third]


def test_it_runs_through_gym_make() -> None:
    env = gym.make("MobileGym-v0", task=Tidy, obs_parts=("a11y",), apps=CORE_APPS)
    env.reset(seed=0)
    env.step({"type": "complete"})
    env.reset(seed=1)
    env.close()
    assert len(TORN) == 2


def test_a_restored_episode_is_torn_down_once() -> None:
    env = make()
    env.reset(seed=0)
    snap = env.snapshot()
    env.step({"type": "wait", "seconds": 1})
    env.restore(snap)
    env.restore(snap)
    env.reset(seed=1)
    assert len(TORN) == 1


def test_each_fork_tears_down_its_own_episode_on_its_own_phone() -> None:
    env = make()
    env.reset(seed=0)
    forks = env.fork(2)
    for fork in forks:
        fork.close()
    env.close()
    assert [device for _, device in TORN] == [forks[0].device, forks[1].device, env.device]


def test_a_broken_tear_down_is_a_task_error_and_the_next_episode_starts() -> None:
    env = make(Broken)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step({"type": "complete"})
    assert terminated and reward == 0.0 and info["task_error"] is None  # the agent failed: score 0, no task error
    with pytest.warns(RuntimeWarning, match=r"demo\.Broken: tear-down failed: KeyError: 'leftover'"):
        _, info = env.reset(seed=1)
    assert info["tear_down_error"] == "demo.Broken: tear-down failed: KeyError: 'leftover'"
    wanted = env.episode.params["wifi"]  # the new episode plays on, and pays for the work
    env.device.set_state({"apps": {"settings": {"wifi": wanted}}})
    _, reward, terminated, _, info = env.step({"type": "complete"})
    assert terminated and reward == 1.0 and info["judge"]["success"] and info["task_error"] is None
    with pytest.warns(RuntimeWarning, match="tear-down failed"):
        env.close()  # reported, and the phones are closed all the same
    assert len(TORN) == 2


def test_a_clean_tear_down_adds_nothing_to_the_reset_info() -> None:
    env = make()
    env.reset(seed=0)
    _, info = env.reset(seed=1)
    assert "tear_down_error" not in info


def test_a_device_error_in_a_tear_down_is_the_devices() -> None:
    episode = PyTaskRef(Unplugged).start(FakeDevice(), seed=0, eval_mode="text")
    with pytest.raises(DeviceError, match="device offline"):
        episode.tear_down()
    broken = PyTaskRef(Broken).start(FakeDevice(), seed=0, eval_mode="text")
    with pytest.raises(TaskError, match=r"demo\.Broken: tear-down failed: KeyError"):
        broken.tear_down()


def test_json_tasks_have_nothing_to_tear_down() -> None:
    env = MobileGymEnv("settings.wifi_off", obs_parts=("a11y",), apps=CORE_APPS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=0)
        _, info = env.reset(seed=1)
        env.close()
    assert "tear_down_error" not in info
