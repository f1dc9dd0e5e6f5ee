"""A seeded random agent over every app: thousands of mixed actions (taps, swipes, keys, open_app,
exotic Unicode typing, malformed actions) raise nothing and every observation is well formed.
benchmarks/fuzz_long.py runs the same agent for 100,000 steps."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import gymnasium as gym

import mobilegym  # noqa: F401
from .fuzzer import MALFORMED, Fuzzer

STEPS = 2500
EPISODE = 250


def test_random_actions_over_every_app_raise_nothing_and_keep_the_tree_well_formed() -> None:
    env = gym.make("MobileGym-v0", task="home.OpenApp", obs_parts=("screenshot", "a11y"), render_scale=0.1,
                   invalid_action="noop", max_steps=EPISODE)
    phone = env.unwrapped.device
    fuzzer = Fuzzer(seed=2024, apps=sorted(phone.apps), screen_size=phone.screen_size, long_text=0.004)
    obs, _ = env.reset(seed=0)
    screens, apps, refused, episode = set(), set(), 0, 0
    for step in range(STEPS):
        action = fuzzer.action(obs["a11y"])
        obs, _, terminated, truncated, info = env.step(action)
        ET.fromstring(obs["a11y"].encode("utf-8"))  # parses, and encodes (no lone surrogate)
        assert obs["screenshot"].shape == (240, 108, 3)
        refused += "last_action_error" in info
        screens.add((info["app"], info["route"].partition("?")[0]))
        apps.add(info["app"])
        if terminated or truncated:
            episode += 1
            obs, _ = env.reset(seed=episode)
    env.close()
    assert refused >= 20  # the malformed actions were refused by name, not raised
    assert apps >= set(phone.apps) - {"answer_sheet"}  # every app was visited
    assert len(screens) >= 25


def test_each_malformed_action_is_refused_with_a_message() -> None:
    env = gym.make("MobileGym-v0", task="home.OpenApp", obs_parts=("a11y",), invalid_action="noop")
    env.reset(seed=0)
    for action in MALFORMED:
        # an unknown app follows the schema: only the phone can tell it is not installed
        assert env.action_space.contains(action) == (action == {"type": "open_app", "app": "no such app"})
        _, _, _, _, info = env.step(action)
        assert isinstance(info.get("last_action_error"), str), action
    env.close()
