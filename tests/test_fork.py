"""env.unwrapped.fork(n) and the "text" observation part."""
from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mobilegym  # noqa: F401
from mobilegym.device.base import UnsupportedCapability
from mobilegym.env import MobileGymEnv
from mobilegym.screen_text import described_nodes

from .test_env import SMALL, center, make


def same_obs(a: dict, b: dict) -> bool:
    return set(a) == set(b) and all(
        np.array_equal(a[k], b[k]) if k == "screenshot" else a[k] == b[k] for k in a)


def to_network_page(env: gym.Env) -> dict:
    obs, _ = env.reset(seed=3)
    obs, *_ = env.step(center(obs, text="Settings"))
    obs, *_ = env.step(center(obs, rid="network_entry"))
    return obs


def test_forks_start_identical_and_move_apart_independently() -> None:
    env = make()
    obs = to_network_page(env)
    right, wrong = env.unwrapped.fork(2)
    assert isinstance(right, MobileGymEnv) and right is not wrong
    assert same_obs(right.observe(), obs) and same_obs(wrong.observe(), obs)
    assert right.steps == wrong.steps == env.unwrapped.steps == 2
    assert right.device.time_ms() == env.unwrapped.device.time_ms()
    right.step(center(obs, rid="wifi_row"))
    assert same_obs(wrong.observe(), obs) and same_obs(env.unwrapped.observe(), obs)  # the others did not move
    wrong.step(center(obs, rid="airplane_mode_row"))
    assert right.step({"type": "complete"})[1] == 1.0
    assert wrong.step({"type": "complete"})[1] == 0.0
    # the original is still mid-episode on the page, and judges its own phone
    _, reward, terminated, _, info = env.step({"type": "complete"})
    assert terminated and reward == 0.0 and info["step"] == 3


def test_a_fork_plays_exactly_as_the_original_would() -> None:
    env, twin_of = make(), make()
    to_network_page(env)
    to_network_page(twin_of)
    fork = env.unwrapped.fork()[0]
    for action in ({"type": "tap", "x": 540, "y": 900}, {"type": "key", "key": "back"}, {"type": "wait", "seconds": 5},
                   {"type": "complete"}):
        a, b = fork.step(action), twin_of.step(action)
        assert same_obs(a[0], b[0]) and a[1:4] == b[1:4] and a[4].get("judge") == b[4].get("judge")
    assert a[4]["judge"]["checks"]
    # the random generators were copied: an unseeded reset draws the same next episode
    fork_obs, fork_info = fork.reset()
    orig_obs, orig_info = env.unwrapped.reset()
    assert fork_info["world_seed"] == orig_info["world_seed"] and same_obs(fork_obs, orig_obs)


def test_fork_needs_an_episode_a_count_and_a_snapshotting_device() -> None:
    env = make()
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.fork(2)
    env.reset(seed=0)
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="positive number"):
            env.unwrapped.fork(bad)

    class NoSnapshot:
        capabilities = frozenset()

    env.unwrapped.device = NoSnapshot()
    with pytest.raises(UnsupportedCapability, match="cannot fork"):
        env.unwrapped.fork(1)


def test_text_part_numbers_each_element_in_the_agent_coordinates() -> None:
    env = make(obs_parts=("a11y", "text"), coord_space="norm1000")
    obs, _ = env.reset(seed=0)
    lines = obs["text"].splitlines()
    nodes = described_nodes(obs["a11y"], screen=env.unwrapped.device.screen_size)
    assert len(lines) == len(nodes) > 3
    width, height = env.unwrapped.device.screen_size
    for i, (line, (node, _)) in enumerate(zip(lines, nodes)):
        match = re.match(r"\[(\d+)\] .* @\((\d+),(\d+)\)", line)
        assert match and int(match[1]) == i
        x, y = node.center
        assert (int(match[2]), int(match[3])) == (round(x / width * 1000), round(y / height * 1000))
    settings = next(line for line in lines if "'Settings'" in line and "click" in line)
    x, y = map(int, re.search(r"@\((\d+),(\d+)\)", settings).groups())
    obs, *_ = env.step({"type": "tap", "x": x, "y": y})  # a centre read from the text taps that element
    assert "network_entry" in obs["text"]


def test_text_part_alone_passes_the_checker_and_the_space() -> None:
    env = make(obs_parts=("text", "instruction"))
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=1)
    assert set(obs) == {"text", "instruction"} and env.observation_space.contains(obs)
    assert "a11y" not in obs and "Settings" in obs["text"]
    with pytest.raises(ValueError, match="'text'"):
        make(obs_parts=("txt",))


def test_make_kwargs_rebuild_the_same_env() -> None:
    env = make(obs_parts=("text",), language="zh")
    again = gym.make("MobileGym-v0", **env.unwrapped.make_kwargs)
    assert env.unwrapped.make_kwargs == {**again.unwrapped.make_kwargs}
    assert env.reset(seed=4)[0] == again.reset(seed=4)[0]
    assert {"apps": SMALL["apps"], "language": "zh"}.items() <= env.unwrapped.make_kwargs.items()
