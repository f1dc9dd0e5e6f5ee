"""MobileGym-v0: the Gymnasium contract, determinism, scripted episodes and invalid actions."""
from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mobilegym  # noqa: F401
from mobilegym.actions import Action, InvalidAction
from mobilegym.env import MobileGymEnv
from mobilegym.judge import AnswerTask, TaskError
from mobilegym.screen_text import parse_nodes

from .uitools import CORE_APPS

SMALL = dict(apps=CORE_APPS, render_scale=0.25)


def make(task: str = "settings.ToggleWifi", **kw) -> gym.Env:
    return gym.make("MobileGym-v0", task=task, **{**SMALL, **kw})


def center(obs: dict, rid: str | None = None, text: str | None = None, index: int = 0) -> dict:
    """A tap action at the centre of a node of the observation's a11y tree."""
    nodes = [n for n in parse_nodes(obs["a11y"])
             if (rid is None or n.short_id == rid) and (text is None or n.text == text)]
    assert len(nodes) > index, f"no node rid={rid} text={text}"
    x, y = nodes[index].center
    return {"type": "tap", "x": x, "y": y}


def test_registered_and_reachable_by_module_path() -> None:
    env = gym.make("mobilegym:MobileGym-v0", task="settings.ToggleWifi", **SMALL)
    assert isinstance(env.unwrapped, MobileGymEnv)


@pytest.mark.parametrize("render_mode", [None, "rgb_array", "ansi"])
def test_gymnasium_check_env_passes_without_warnings(render_mode) -> None:
    env = make(render_mode=render_mode)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=False)  # gymnasium's advice: check the unwrapped env


def test_observation_matches_space_and_contract() -> None:
    env = make("clock.CountAlarms", render_scale=1.0)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert obs["screenshot"].dtype == np.uint8 and obs["screenshot"].shape == (2400, 1080, 3)
    assert obs["a11y"].startswith("<?xml") and "<hierarchy" in obs["a11y"]
    assert "AnswerSheet" in obs["instruction"]
    assert info["task_id"] == "clock.CountAlarms" and info["step"] == 0 and "params" in info


def test_observations_never_share_memory() -> None:
    env = make()
    obs0, _ = env.reset(seed=0)
    obs1, *_ = env.step({"type": "wait", "seconds": 1})
    assert not np.shares_memory(obs0["screenshot"], obs1["screenshot"])
    obs1["screenshot"][:] = 0
    obs2, *_ = env.step({"type": "wait", "seconds": 1})
    assert obs2["screenshot"].any()


def _rollout(seed: int, actions: list[dict]) -> list[tuple]:
    env = make("clock.ToggleAlarm")
    obs, info = env.reset(seed=seed)
    out = [(obs["screenshot"].tobytes(), obs["a11y"], str(env.unwrapped.device.get_state()), info["params"])]
    for action in actions:
        obs, reward, term, trunc, info = env.step(action)
        out.append((obs["screenshot"].tobytes(), obs["a11y"], str(env.unwrapped.device.get_state()), reward))
        if term or trunc:
            break
    return out


def test_same_seed_same_actions_give_identical_episodes() -> None:
    space = make().unwrapped.action_space
    space.seed(7)
    actions = [{"type": "open_app", "app": "clock"}] + [space.sample() for _ in range(25)]
    assert _rollout(3, actions) == _rollout(3, actions)
    assert _rollout(3, actions)[0][2] != _rollout(4, actions)[0][2]  # another seed is another world


def test_action_space_samples_are_valid_and_seeded() -> None:
    space = make().unwrapped.action_space
    space.seed(1)
    first = [space.sample() for _ in range(50)]
    space.seed(1)
    assert first == [space.sample() for _ in range(50)]
    assert all(space.contains(a) for a in first)
    assert not space.contains({"type": "tap", "x": -1, "y": 5})


def test_scripted_settings_episode_by_tapping_tree_nodes() -> None:
    env = make("settings.ToggleWifi")
    obs, info = env.reset(seed=0)
    target = info["params"]["wifi"]
    obs, *_ = env.step(center(obs, text="Settings"))
    obs, *_ = env.step(center(obs, rid="network_entry"))
    obs, *_ = env.step(center(obs, rid="wifi_row"))
    assert [n for n in parse_nodes(obs["a11y"]) if n.short_id == "wifi_switch"][0].checked is target
    obs, reward, terminated, truncated, info = env.step({"type": "complete"})
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["judge"]["success"] and info["judge"]["checks"][0]["passed"]


def _keyboard_time(env: gym.Env, obs: dict, hour: int, minute: int) -> dict:
    """Set the alarm editor's time in the time picker's keyboard-entry mode; the next observation."""
    obs, *_ = env.step(center(obs, rid="alarm_time_input"))
    obs, *_ = env.step(center(obs, rid="toggle_mode"))
    for rid, text in (("input_hour", f"{hour:02d}"), ("input_minute", f"{minute:02d}")):
        tap = center(obs, rid=rid)
        obs, *_ = env.step({"type": "type", "text": text, "x": tap["x"], "y": tap["y"], "clear": True})
    obs, *_ = env.step(center(obs, rid="button1"))
    return obs


def test_scripted_clock_episode_adds_alarm() -> None:
    env = make("clock.AddAlarm")
    obs, info = env.reset(seed=2)
    p = info["params"]
    obs, *_ = env.step({"type": "open_app", "app": "Clock"})
    obs, *_ = env.step(center(obs, rid="add_alarm"))
    obs = _keyboard_time(env, obs, p["hour"], p["minute"])
    tap = center(obs, rid="label_input")
    obs, *_ = env.step({"type": "type", "text": p["label"], "x": tap["x"], "y": tap["y"], "clear": True})
    obs, *_ = env.step(center(obs, rid="save_alarm"))
    obs, reward, terminated, _, info = env.step({"type": "complete"})
    assert reward == 1.0, info["judge"]


def test_clock_episode_wrong_time_scores_zero() -> None:
    env = make("clock.AddAlarm")
    obs, info = env.reset(seed=2)
    p = info["params"]
    obs, *_ = env.step({"type": "open_app", "app": "Clock"})
    obs, *_ = env.step(center(obs, rid="add_alarm"))
    obs = _keyboard_time(env, obs, (p["hour"] + 1) % 24, p["minute"])
    tap = center(obs, rid="label_input")
    obs, *_ = env.step({"type": "type", "text": p["label"], "x": tap["x"], "y": tap["y"], "clear": True})
    obs, *_ = env.step(center(obs, rid="save_alarm"))
    _, reward, *_ , info = env.step({"type": "complete"})
    assert reward == 0.0 and not info["judge"]["success"] and info["judge"]["error"] is None


def test_typed_actions_and_judging_mid_episode() -> None:
    env = make()
    obs, _ = env.reset(seed=0)
    tap = center(obs, text="Settings")
    action = Action("tap", {"x": tap["x"], "y": tap["y"]})
    assert action.to_dict() == tap
    env.step(action)
    assert env.unwrapped.device.current_app() == "settings"
    verdict = env.unwrapped.judge_now()
    assert not verdict.success and verdict.checks[0]["actual"] is False
    _, reward, terminated, *_ = env.step({"type": "wait", "seconds": 1})
    assert (reward, terminated) == (0.0, False)  # judging mid-episode does not end it


def test_snapshot_forks_an_episode() -> None:
    env = make("settings.ToggleWifi")
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step(center(obs, text="Settings"))
    obs, *_ = env.step(center(obs, rid="network_entry"))
    fork = env.unwrapped.snapshot()
    right = [env.step(center(obs, rid="wifi_row")), env.step({"type": "complete"})]
    restored = env.unwrapped.restore(fork)
    assert restored["a11y"] == obs["a11y"] and np.array_equal(restored["screenshot"], obs["screenshot"])
    wrong = [env.step(center(obs, rid="airplane_mode_row")), env.step({"type": "complete"})]
    assert (right[-1][1], wrong[-1][1]) == (1.0, 0.0)
    assert right[-1][4]["step"] == wrong[-1][4]["step"] == 4
    env.unwrapped.restore(fork)
    again = [env.step(center(obs, rid="wifi_row")), env.step({"type": "complete"})]
    assert again[-1][1] == 1.0 and again[-1][0]["a11y"] == right[-1][0]["a11y"]


def test_truncated_at_step_budget_with_judge_reward() -> None:
    env = make(max_steps=3)
    env.reset(seed=0)
    results = [env.step({"type": "wait", "seconds": 1}) for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True]
    assert [r[2] for r in results] == [False, False, False]
    assert "judge" in results[-1][4] and "judge" not in results[0][4]
    with pytest.raises(RuntimeError, match="call reset"):
        env.step({"type": "wait", "seconds": 1})


def test_abort_terminates_and_scores_zero_on_feasible_task() -> None:
    env = make()
    obs, info = env.reset(seed=0)
    for action in (center(obs, text="Settings"),):
        obs, *_ = env.step(action)
    _, reward, terminated, _, info = env.step({"type": "abort", "text": "cannot"})
    assert terminated and reward == 0.0


def test_auto_complete_mode_ends_when_goal_holds() -> None:
    env = make(reward_mode="auto_complete")
    obs, info = env.reset(seed=0)
    obs, r1, t1, *_ = env.step(center(obs, text="Settings"))
    obs, r2, t2, *_ = env.step(center(obs, rid="network_entry"))
    obs, r3, t3, _, info = env.step(center(obs, rid="wifi_row"))
    assert (r1, t1, r2, t2) == (0.0, False, 0.0, False)
    assert (r3, t3) == (1.0, True)


def test_auto_complete_sees_the_answer_in_text_mode() -> None:
    env = make("clock.CountAlarms", reward_mode="auto_complete", eval_mode="text", world="canonical")  # 4 alarms
    env.reset(seed=0)
    _, r1, t1, *_ = env.step({"type": "answer", "text": "3"})
    _, r2, t2, *_ = env.step({"type": "answer", "text": "There are 4 alarms"})
    assert (r1, t1, r2, t2) == (0.0, False, 1.0, True)


def test_dense_mode_rewards_progress_deltas() -> None:
    env = make(reward_mode="dense")
    obs, _ = env.reset(seed=0)
    rewards = []
    for rid in (None, "network_entry", "wifi_row"):
        obs, reward, *_ = env.step(center(obs, text="Settings") if rid is None else center(obs, rid=rid))
        rewards.append(reward)
    assert rewards == [0.0, 0.0, 1.0]


@pytest.mark.parametrize("action, message", [
    ("tap", "must be a dict"),
    ({"x": 1}, "unknown action type None"),
    ({"type": "teleport"}, "unknown action type 'teleport'"),
    ({"type": "tap", "x": 5}, "missing field.*'y'"),
    ({"type": "tap", "x": "5", "y": 3}, "'x' must be a number"),
    ({"type": "tap", "x": 5, "y": 3, "z": 1}, "unexpected field.*'z'"),
    ({"type": "tap", "x": 2000, "y": 3}, r"x=2000 is outside \[0, 1080\)"),
    ({"type": "tap", "x": float("nan"), "y": 3}, "must be finite"),
    ({"type": "double_tap", "x": 5, "y": 99999}, "y=99999 is outside"),
    ({"type": "long_press", "x": 5, "y": 5, "duration_ms": -3}, "duration_ms must be in"),
    ({"type": "swipe", "x": 5, "y": 5, "x2": 5}, "missing field.*'y2'"),
    ({"type": "drag", "x": 5, "y": 5, "x2": 5, "y2": True}, "'y2' must be a number"),
    ({"type": "type"}, "missing field.*'text'"),
    ({"type": "type", "text": 42}, "'text' must be a string"),
    ({"type": "type", "text": "a", "x": 5}, "give both x and y"),
    ({"type": "type", "text": "a", "clear": "yes"}, "'clear' must be true or false"),
    ({"type": "key", "key": "volume_up"}, "unknown key 'volume_up'"),
    ({"type": "open_app", "app": ""}, "must not be empty"),
    ({"type": "open_app", "app": "Snapchat"}, "unknown app 'Snapchat'"),
    ({"type": "wait", "seconds": -1}, "seconds must be in"),
    ({"type": "answer"}, "missing field.*'text'"),
    ({"type": "complete", "reason": "x"}, "unexpected field.*'reason'"),
])
def test_invalid_actions_raise_clear_errors_and_change_nothing(action, message) -> None:
    env = make()
    env.reset(seed=0)
    device = env.unwrapped.device
    before = device.get_state()
    with pytest.raises(InvalidAction, match=message):
        env.step(action)
    assert device.get_state() == before


def test_noop_policy_reports_invalid_action_in_info() -> None:
    env = make(invalid_action="noop")
    env.reset(seed=0)
    before = env.unwrapped.device.get_state()
    obs, reward, terminated, truncated, info = env.step({"type": "tap", "x": -5, "y": 0})
    assert "outside" in info["last_action_error"] and reward == 0.0 and not terminated
    assert env.unwrapped.device.get_state() == before and info["step"] == 1


@pytest.mark.parametrize("space, scale", [("norm1000", 1000), ("norm1", 1)])
def test_normalised_coordinate_spaces(space: str, scale: float) -> None:
    env = make(coord_space=space)
    obs, _ = env.reset(seed=0)
    tap = center(obs, text="Settings")
    env.step({"type": "tap", "x": tap["x"] / 1080 * scale, "y": tap["y"] / 2400 * scale})
    assert env.unwrapped.device.current_app() == "settings"
    with pytest.raises(InvalidAction, match=f"outside \\[0, {scale:g}\\)"):
        env.step({"type": "tap", "x": 1.5 * scale, "y": 0})


def test_observation_parts_are_configurable() -> None:
    env = make(obs_parts=("a11y",))
    obs, _ = env.reset(seed=0)
    assert set(obs) == {"a11y"} and set(env.observation_space.spaces) == {"a11y"}


def test_render_modes() -> None:
    env = make(render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (600, 270, 3)
    env = make(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text.startswith("launcher /") and "'Settings'" in text
    assert MobileGymEnv.metadata["render_fps"] > 0


def test_info_carries_timings_and_judge_result() -> None:
    env = make()
    env.reset(seed=0)
    *_, info = env.step({"type": "complete"})
    assert set(info["timings"]) == {"action_ms", "judge_ms", "render_ms"}
    judge = info["judge"]
    assert {"success", "clean", "progress", "score", "checks", "side_effects", "error"} <= set(judge)
    assert set(judge["checks"][0]) >= {"field", "expected", "actual", "passed"}


@pytest.mark.parametrize("kwargs, message", [
    ({"eval_mode": "fuzzy"}, "eval_mode must be one of"),
    ({"coord_space": "inches"}, "unknown coordinate space 'inches'"),
    ({"obs_parts": ("screenshot", "audio")}, "obs_parts must be"),
    ({"max_steps": 0}, "max_steps must be a positive integer"),
    ({"invalid_action": "ignore"}, "invalid_action must be one of"),
    ({"language": "fr"}, "language must be one of"),
    ({"render_scale": 2.0}, "render_scale must be in"),
    ({"screen_size": (1080,)}, "screen_size must be"),
    ({"reward_mode": "sparse"}, "reward_mode must be one of"),
    ({"device": "emulator"}, "device must be 'sim'"),
])
def test_bad_parameters_are_clear_errors(kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        make(**kwargs)


def test_unknown_task_id_is_a_task_error_naming_it() -> None:
    with pytest.raises(TaskError, match="settings.ToggleWiFi"):
        make("settings.ToggleWiFi")


def test_collection_draws_task_with_reset_seed() -> None:
    env = make(["settings.ToggleWifi", "clock.CountAlarms", "clock.ToggleAlarm"])
    picks = [env.reset(seed=s)[1]["task_id"] for s in range(12)]
    assert len(set(picks)) > 1
    assert picks == [env.reset(seed=s)[1]["task_id"] for s in range(12)]
    _, info = env.reset(seed=0, options={"task": "clock.CountAlarms"})
    assert info["task_id"] == "clock.CountAlarms"
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(seed=0, options={"level": 3})


class ReadMissingField(AnswerTask):
    """A broken task: its answer path does not exist in the Clock app's data."""

    app = "clock"
    objective = "query"
    difficulty = "L1"
    capabilities = ["reading"]
    templates = ["What is the snooze length?"]
    answer = ".snooze_minutes"


def test_task_errors_are_kept_apart_from_agent_failures() -> None:
    env = make(ReadMissingField, eval_mode="text")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step({"type": "complete", "text": "10"})
    assert terminated and reward == 0.0
    assert "snooze_minutes" in info["task_error"] and info["judge"]["error"] == info["task_error"]
    assert not info["judge"]["success"]
    failed = make("clock.CountAlarms", eval_mode="text")
    failed.reset(seed=0)
    *_, info = failed.step({"type": "complete", "text": "17"})
    assert info["task_error"] is None and info["judge"]["score"] == 0.0


def test_every_fork_of_a_snapshot_judges_afresh() -> None:
    """A JSON task's postconfig runs when an episode ends; each restored fork ends it again, on its own."""
    env = gym.make("MobileGym-v0", task="settings.dark_theme_on", obs_parts=("a11y",))
    env.reset(seed=0)
    env.step({"type": "open_app", "app": "settings"})
    fork = env.unwrapped.snapshot()
    endings = []
    for _ in range(2):
        env.unwrapped.restore(fork)
        env.unwrapped.device.set_state({"apps": {"settings": {"dark_mode": True}}})
        *_, info = env.step({"type": "complete"})
        endings.append((info["judge"]["score"], info["app"]))
    assert endings == [(1.0, "launcher")] * 2  # postconfig (go home) ran at the end of both


@pytest.mark.parametrize("policy", ["raise", "noop"])
def test_typing_with_no_field_focused_is_reported_not_dropped_silently(policy: str) -> None:
    env = make("clock.AddAlarm", invalid_action=policy)
    obs, _ = env.reset(seed=2)
    before = env.unwrapped.device.get_state()["apps"]
    obs, reward, terminated, _, info = env.step({"type": "type", "text": "07:30"})  # the home screen: no field
    assert "no text field has focus" in info["last_action_error"] and (reward, terminated) == (0.0, False)
    assert info["step"] == 1 and env.unwrapped.device.get_state()["apps"] == before
    obs, *_ = env.step({"type": "open_app", "app": "Clock"})
    obs, *_ = env.step(center(obs, rid="add_alarm"))
    tap = center(obs, rid="label_input")
    _, _, _, _, info = env.step({"type": "type", "text": "Gym", "x": tap["x"], "y": tap["y"]})
    assert "last_action_error" not in info  # a focused field took it
