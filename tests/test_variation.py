"""Variation axes (mobilegym.variation, the env option ``variation=``): off by default and then byte-identical,
deterministic per seed, each axis applied to what the agent sees, bad input refused by name, the robustness
split held out and every oracle plan still scoring 1 under a sample of its episodes."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import gymnasium as gym
import numpy as np
import pytest

import mobilegym  # noqa: F401
from mobilegym.judge.splits import (ROBUSTNESS_PER_TASK, SPLITS_DIR, build_robustness, held_out_variation,
                                    robustness_episodes)
from mobilegym.oracle import plans_for, run_plan
from mobilegym.variation import AXES, choose, parse_variation

SMALL = dict(task="home.OpenApp", render_scale=0.1)
CJK = re.compile(r"[\u4e00-\u9fff]")


def _bottoms(xml: str) -> int:
    return max(int(re.findall(r"-?\d+", n.get("bounds", ""))[3]) for n in ET.fromstring(xml).iter("node"))


def _texts(xml: str) -> list[str]:
    return [n.get("text", "") for n in ET.fromstring(xml).iter("node") if n.get("text")]


# off by default ---------------------------------------------------------------------------------------------------

def test_off_by_default_observations_are_unchanged_and_info_has_no_variation():
    plain = gym.make("MobileGym-v0", **SMALL)
    varied = gym.make("MobileGym-v0", **SMALL, variation=None)
    actions = [{"type": "tap", "x": 200, "y": 700}, {"type": "key", "key": "back"}, {"type": "tap", "x": 700, "y": 1500}]
    for seed in (0, 3):
        a, info_a = plain.reset(seed=seed)
        b, info_b = varied.reset(seed=seed)
        assert "variation" not in info_a and "variation" not in info_b
        for action in actions:
            assert a["screenshot"].tobytes() == b["screenshot"].tobytes() and a["a11y"] == b["a11y"]
            a, *_ = plain.step(action)
            b, *_ = varied.step(action)


def test_after_a_varied_episode_the_next_plain_one_is_unchanged():
    plain = gym.make("MobileGym-v0", **SMALL)
    env = gym.make("MobileGym-v0", **SMALL)
    env.reset(seed=1, options={"variation": {"screen": "1440x3120", "theme": "dark", "language": "zh"}})
    a, _ = plain.reset(seed=1)
    b, info = env.reset(seed=1)
    assert "variation" not in info and env.unwrapped.device.screen_size == (1080, 2400)
    assert a["screenshot"].tobytes() == b["screenshot"].tobytes() and a["a11y"] == b["a11y"]


# deterministic ----------------------------------------------------------------------------------------------------

def test_same_seed_same_variation_and_observations():
    envs = [gym.make("MobileGym-v0", **SMALL, variation="all") for _ in range(2)]
    seen = []
    for seed in range(6):
        (a, info_a), (b, info_b) = (env.reset(seed=seed) for env in envs)
        assert info_a["variation"] == info_b["variation"]
        assert a["screenshot"].tobytes() == b["screenshot"].tobytes() and a["a11y"] == b["a11y"]
        seen.append(json.dumps(info_a["variation"], sort_keys=True))
    assert len(set(seen)) > 1, "six seeds all drew the same variation"


def test_an_axis_draw_does_not_depend_on_the_other_axes():
    spec = parse_variation("all")
    assert spec is not None
    for seed in range(10):
        assert choose({"theme": AXES["theme"]}, seed).values["theme"] == choose(spec, seed).values["theme"]


# each axis applied ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("screen", AXES["screen"])
def test_screen_size_and_density(screen):
    width, height = map(int, screen.split("x"))
    env = gym.make("MobileGym-v0", **SMALL)
    obs, info = env.reset(seed=0, options={"variation": {"screen": screen}})
    assert info["variation"] == {"screen": screen}
    assert env.unwrapped.device.screen_size == (width, height)
    assert obs["screenshot"].shape == env.observation_space["screenshot"].shape  # scaled to the observation
    assert height * 0.9 < _bottoms(obs["a11y"]) <= height  # the tree is in the episode's pixels
    assert env.unwrapped.coords.width == width and env.unwrapped.coords.height == height


def test_dark_theme_darkens_the_screen():
    env = gym.make("MobileGym-v0", **SMALL)
    means = {theme: env.reset(seed=2, options={"variation": {"theme": theme}})[0]["screenshot"].mean()
             for theme in AXES["theme"]}
    assert means["dark"] < means["light"] - 50


def test_language_of_the_tree_and_the_instruction():
    env = gym.make("MobileGym-v0", **SMALL)
    obs, info = env.reset(seed=0, options={"variation": {"language": "zh"}})
    assert CJK.search(" ".join(_texts(obs["a11y"]))) and CJK.search(obs["instruction"])
    obs, _ = env.reset(seed=0, options={"variation": {"language": "en"}})
    assert not CJK.search(obs["instruction"])


def test_font_scale_makes_text_taller():
    env = gym.make("MobileGym-v0", **SMALL)
    heights = {}
    for scale in ("small", "largest"):
        obs, _ = env.reset(seed=0, options={"variation": {"font_scale": scale}})
        clock = next(n for n in ET.fromstring(obs["a11y"]).iter("node") if n.get("resource-id", "").endswith("clock"))
        y1, y2 = (int(v) for v in re.findall(r"-?\d+", clock.get("bounds", ""))[1::2])
        heights[scale] = y2 - y1
    assert heights["largest"] > heights["small"]


def test_launcher_layout():
    env = gym.make("MobileGym-v0", **SMALL)
    orders = {layout: _texts(env.reset(seed=5, options={"variation": {"launcher": layout}})[0]["a11y"])
              for layout in AXES["launcher"]}
    assert orders["default"] != orders["shuffled"] and sorted(orders["default"]) == sorted(orders["shuffled"])


def test_toast_interruptions_show_after_their_steps_and_go_with_the_next_input():
    env = gym.make("MobileGym-v0", **SMALL, variation={"interruptions": "toast"})
    obs, info = env.reset(seed=3)
    steps = info["variation"]["interruption_steps"]
    assert steps and all(1 <= s <= 12 for s in steps)
    for step in range(1, max(steps) + 2):
        obs, *_, info = env.step({"type": "key", "key": "back"})
        assert (":id/toast\"" in obs["a11y"]) == (step in steps), step


# bad input --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec, message", [
    ("some", "variation must be None, 'all' or a mapping"),
    ({}, "at least one axis"),
    ({"colour": "all"}, "unknown variation axis 'colour'"),
    ({"theme": "sepia"}, "no value 'sepia'"),
    ({"screen": []}, "non-empty list"),
    ({"screen": [1080]}, "no value 1080"),
])
def test_bad_variation_is_refused_by_name(spec, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        gym.make("MobileGym-v0", **SMALL, variation=spec)


def test_bad_reset_variation_is_refused():
    env = gym.make("MobileGym-v0", **SMALL)
    with pytest.raises(ValueError, match="one value per axis"):
        env.reset(seed=0, options={"variation": {"theme": "all"}})
    with pytest.raises(ValueError, match="mapping of axis"):
        env.reset(seed=0, options={"variation": "dark"})


def test_theme_needs_the_settings_app():
    with pytest.raises(ValueError, match="Settings app"):
        gym.make("MobileGym-v0", **SMALL, apps=["clock"], variation={"theme": "all"})


# robustness split -------------------------------------------------------------------------------------------------

def test_robustness_split_is_current_and_held_out():
    manifest = json.loads((SPLITS_DIR / "robustness.json").read_text(encoding="utf-8"))
    assert manifest == json.loads(json.dumps(build_robustness()))
    episodes = robustness_episodes()
    all_ids = {t for ids in json.loads((SPLITS_DIR / "all.json").read_text(encoding="utf-8")).values() for t in ids}
    assert {t for t, _ in episodes} == all_ids and len(episodes) == ROBUSTNESS_PER_TASK * len(all_ids)
    assert all(held_out_variation(v) for _, v in episodes)
    assert 0.2 < len(manifest["held_out"]) / np.prod([len(v) for v in AXES.values()]) < 0.4
    with pytest.raises(ValueError, match="needs every axis"):
        held_out_variation({"theme": "dark"})


SAMPLE = robustness_episodes()[::9]


@pytest.fixture(scope="module")
def split_env() -> gym.Env:
    return gym.make("MobileGym-v0", task=sorted({t for t, _ in SAMPLE}), obs_parts=("a11y",))


@pytest.mark.parametrize("task_id, variation", SAMPLE, ids=[f"{t}-{i}" for i, (t, _) in enumerate(SAMPLE)])
def test_oracle_scores_one_under_robustness_variations(split_env, task_id, variation, monkeypatch):
    oracle = next(p for p in plans_for(task_id) if p.expect_success)
    reset = split_env.reset
    monkeypatch.setattr(split_env, "reset", lambda seed, options: reset(seed=seed, options={**options,
                                                                                                "variation": variation}))
    reward, info, _ = run_plan(split_env, task_id, oracle, seed=7)
    assert info["variation"]["screen"] == variation["screen"]
    assert reward == 1.0 and info["task_error"] is None, info.get("judge")
