"""mobilegym.wrappers: SB3-ready observations and discrete actions on the simulated phone."""
from __future__ import annotations

import re

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from stable_baselines3.common.env_checker import check_env

import mobilegym  # noqa: F401
from mobilegym.wrappers import (ELEMENT_FEATURES, SB3_ENV_ID, ElementActions, ElementTable, GridActions,
                                ImageObservation, InstructionEncoding, make_sb3_env, parse_elements, text_hash,
                                token_id, tokenize)

from .uitools import CORE_APPS

F = len(ELEMENT_FEATURES)
BASE = dict(apps=CORE_APPS, shuffle_launcher=True, max_steps=6)


def sb3(obs: str = "a11y", action: str = "element", **kw) -> gym.Env:
    return make_sb3_env("home.OpenApp", obs=obs, action=action, **{**BASE, **kw})


def rows(obs: dict) -> np.ndarray:
    return obs["elements"].reshape(-1, F)


def target_row(env: gym.Env) -> int:
    """The element-table row of the icon the instruction names."""
    label = env.unwrapped.instruction.split("Open the ")[-1].removesuffix(" app").removeprefix("Launch ")
    return next(i for i, el in enumerate(env.get_wrapper_attr("elements")) if el.label == label)


@pytest.mark.parametrize("obs", ["image", "multi", "a11y"])
@pytest.mark.parametrize("action", ["grid", "element"])
def test_sb3_and_gymnasium_checkers_pass_without_warnings(obs: str, action: str) -> None:
    env = sb3(obs, action)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)
        warnings.filterwarnings("ignore", message=".*is different from the unwrapped version")  # it is wrapped
        gym_check_env(env, skip_render_check=True)


def test_spaces_of_each_mode() -> None:
    image = sb3("image", "grid").observation_space
    assert isinstance(image, gym.spaces.Box) and image.shape == (240, 108, 3) and image.dtype == np.uint8
    multi = sb3("multi").observation_space
    assert set(multi.spaces) == {"image", "instruction", "elements", "element_class", "element_mask"}
    assert multi["elements"].shape == (32 * F,) and multi["element_mask"].n == 32
    assert set(sb3("a11y").observation_space.spaces) == {"instruction", "elements", "element_class", "element_mask"}
    assert sb3(action="grid", grid=(3, 5)).action_space.n == 15 + 2
    assert sb3(extra_actions=("back", "home", "complete")).action_space.n == 32 + 3


def test_registered_id_builds_the_same_env() -> None:
    env = gym.make(SB3_ENV_ID, task="home.OpenApp", obs="a11y", **BASE)
    obs, _ = env.reset(seed=3)
    direct, _ = sb3().reset(seed=3)
    assert all(np.array_equal(obs[k], direct[k]) for k in direct)


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="obs must be"):
        sb3(obs="pixels")
    with pytest.raises(ValueError, match="action must be"):
        sb3(action="swipe")
    with pytest.raises(ValueError, match="reward must be"):
        sb3(reward="sparse")
    with pytest.raises(ValueError, match="reward_mode"):
        sb3(reward_mode="dense")
    with pytest.raises(ValueError, match="unknown extra action"):
        sb3(extra_actions=("jump",))
    env = sb3()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="outside"):
        env.step(99)


def test_image_is_rendered_small_not_resized() -> None:
    env = sb3("image", "grid", image_size=(54, 120))
    assert env.unwrapped.render_scale == pytest.approx(0.05)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (120, 54, 3) and obs.dtype == np.uint8 and obs.std() > 0


def test_image_resized_when_the_scale_cannot_match() -> None:
    base = gym.make("MobileGym-v0", task="home.OpenApp", obs_parts=("screenshot",), render_scale=0.1, apps=CORE_APPS)
    env = ImageObservation(base, size=(84, 84))
    obs, _ = env.reset(seed=0)
    assert obs["image"].shape == (84, 84, 3) and env.observation_space.contains(obs)


def test_instruction_encodings_are_stable_and_fixed_size() -> None:
    assert tokenize("Open the Clock app 打开时钟") == ["open", "the", "clock", "app", "打", "开", "时", "钟"]
    assert tokenize("Wi-Fi开关") == ["wi", "fi", "开", "关"]
    assert (token_id("open", 1024), token_id("clock", 1024), text_hash("Clock")) == (527, 365, 48786)  # crc32
    base = gym.make("MobileGym-v0", task="home.OpenApp", obs_parts=("instruction",), apps=CORE_APPS)
    text = "Open the Clock app"
    bag = InstructionEncoding(base, "bag", vocab=1024).encode(text)
    assert bag.shape == (1024,) and bag.sum() == 4 and bag[527] == bag[365] == 1
    tokens = InstructionEncoding(base, "tokens", length=6, vocab=1024).encode(text)
    assert tokens.tolist() == [527, token_id("the", 1024), 365, token_id("app", 1024), 0, 0]
    raw = InstructionEncoding(base, "bytes", length=4).encode(text)
    assert raw.tolist() == [ord("O") + 1, ord("p") + 1, ord("e") + 1, ord("n") + 1]
    env = InstructionEncoding(base, "tokens", length=6)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)


def test_element_table_describes_the_launcher() -> None:
    env = sb3()
    obs, _ = env.reset(seed=0)
    elements = env.get_wrapper_attr("elements")
    table = rows(obs)
    labels = [el.label for el in elements]
    assert re.fullmatch(r"[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}", labels[0])  # the launcher's date line
    assert labels[1:4] == ["AnswerSheet", "Settings", "Clock"]  # shuffled by the episode seed
    assert labels[-3:] == ["Back", "Home", "Overview"]
    assert obs["element_mask"].tolist() == [1] * len(elements) + [0] * (32 - len(elements))
    assert not table[len(elements):].any() and not obs["element_class"][len(elements):].any()
    assert ((table[:, :4] >= 0) & (table[:, :4] <= 1)).all()
    assert table[:4, ELEMENT_FEATURES.index("clickable")].tolist() == [0, 1, 1, 1]
    match = table[:, ELEMENT_FEATURES.index("instruction_match")]
    assert match[target_row(env)] == 1.0 and match.sum() == 1.0
    bits = table[2, ELEMENT_FEATURES.index("text_bit0"):]
    assert int(sum(int(b) << i for i, b in enumerate(bits))) == text_hash("Settings")


def test_element_table_of_an_unchanged_screen_is_equal_and_never_shared() -> None:
    env = sb3()
    obs, _ = env.reset(seed=0)
    first = {name: obs[name].copy() for name in ("elements", "element_class", "element_mask")}
    obs["elements"][:] = 0.5  # an agent scribbling on its observation
    again, *_ = env.step(env.action_space.n - 2)  # back on the home screen: nothing changes
    for name, value in first.items():
        assert np.array_equal(again[name], value), name
    assert again["elements"] is not obs["elements"]


def test_parse_elements_merges_texts_into_interactive_parents() -> None:
    xml = ('<?xml version="1.0"?><hierarchy rotation="0">'
           '<node class="android.widget.LinearLayout" text="" content-desc="" clickable="true" bounds="[0,0][100,50]">'
           '<node class="android.widget.TextView" text="Wi-Fi" content-desc="" clickable="false" bounds="[0,0][60,50]"/>'
           '<node class="android.widget.Switch" text="" content-desc="" clickable="true" checkable="true" '
           'checked="true" bounds="[60,0][100,50]"/></node>'
           '<node class="android.widget.TextView" text="Network" clickable="false" bounds="[0,60][100,80]"/>'
           '<node class="android.widget.FrameLayout" text="" clickable="false" bounds="[0,80][100,90]"/>'
           '</hierarchy>')
    found = parse_elements(xml, 8)
    assert [(e.label, e.clickable, e.checked) for e in found] == [("Wi-Fi", True, False), ("", True, True),
                                                                   ("Network", False, False)]
    assert len(parse_elements(xml, 2)) == 2


def test_tapping_the_named_icon_succeeds_at_once() -> None:
    env = sb3()
    env.reset(seed=5)
    obs, reward, terminated, truncated, info = env.step(target_row(env))
    assert (reward, terminated, truncated, info["is_success"]) == (1.0, True, False, True)


def test_action_masks_and_no_ops() -> None:
    env = sb3()
    obs, _ = env.reset(seed=0)
    mask = env.get_wrapper_attr("action_masks")()
    clickable = [el.clickable for el in env.get_wrapper_attr("elements")]
    assert mask.dtype == bool and mask.shape == (34,)
    assert mask[:len(clickable)].tolist() == clickable and not mask[len(clickable):32].any() and mask[32:].all()
    status_row = clickable.index(False)
    after, reward, terminated, truncated, info = env.step(status_row)  # a text row: nothing to tap
    assert info["step"] == 1 and info["app"] == "launcher" and not terminated
    after, _, _, _, info = env.step(31)  # an empty row
    assert info["step"] == 2 and info["app"] == "launcher"
    assert np.array_equal(rows(after)[:, :4], rows(obs)[:, :4])


def test_grid_taps_cell_centres_in_the_env_coordinate_space() -> None:
    for coord_space, scale in (("pixels", 1.0), ("norm1000", 1000 / 1080)):
        base = gym.make("MobileGym-v0", task="home.OpenApp", apps=CORE_APPS, coord_space=coord_space)
        grid = GridActions(base, cols=4, rows=8)
        assert grid.action(0) == {"type": "tap", "x": pytest.approx(135 * scale), "y": pytest.approx(150 * (
            scale if coord_space == "pixels" else 1000 / 2400))}
        assert grid.action(32) == {"type": "key", "key": "back"} and grid.action(33) == {"type": "key", "key": "home"}
        assert grid.action_masks().all()


def test_grid_tap_on_an_icon_opens_its_app() -> None:
    env = sb3(action="grid", shuffle_launcher=False)  # icons by label: AnswerSheet, Clock, Settings
    env.reset(seed=0)
    _, _, _, _, info = env.step(5)  # column 1, row 1 (row 0 holds the date line): the first row's second icon
    assert info["app"] == "clock"


def test_dense_reward_from_judge_progress() -> None:
    env = sb3(reward="dense")
    env.reset(seed=2)
    wrong = next(i for i, el in enumerate(env.get_wrapper_attr("elements")) if el.clickable and i != target_row(env)
                 and el.resource_id.endswith("app_icon"))
    _, reward, terminated, *_ = env.step(wrong)
    assert (reward, terminated) == (0.0, False)
    env.step(33)  # home
    _, reward, terminated, *_ = env.step(target_row(env))
    assert (reward, terminated) == (1.0, False)  # dense: progress went 0 -> 1, the episode goes on


def test_same_seed_same_actions_same_observations() -> None:
    def run() -> list[dict]:
        env = sb3("multi")
        out = [env.reset(seed=11)[0]]
        for action in (0, 33, 1, 32):
            out.append(env.step(action)[0])
        return out

    for a, b in zip(run(), run()):
        assert all(np.array_equal(a[k], b[k]) for k in a)


def test_wrappers_compose_with_gymnasium_wrappers() -> None:
    base = gym.make("MobileGym-v0", task="home.OpenApp", apps=CORE_APPS, render_scale=0.1, max_steps=3)
    env = gym.wrappers.RecordEpisodeStatistics(ElementTable(ElementActions(base), max_elements=16))
    env.reset(seed=0)
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(32)  # back
        done = terminated or truncated
    assert info["episode"]["l"] == 3
