"""reward_mode="shaped": progress deltas, a side-effect penalty, and end penalties for undeclared or false goals."""
from __future__ import annotations

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.env import MobileGymEnv
from mobilegym.judge import JudgeResult
from mobilegym.oracle import plans_for, run_plan
from mobilegym.screen_text import parse_nodes
from mobilegym.shaping import SHAPED_PENALTIES, Potential, final_reward, resolve_penalties

TASK = "settings.ToggleWifi"
WAIT = {"type": "wait", "seconds": 1}


class RewardLog(gym.Wrapper):
    """Keeps every step's reward of the current episode."""

    def reset(self, **kwargs):
        self.rewards: list[float] = []
        return self.env.reset(**kwargs)

    def step(self, action):
        result = self.env.step(action)
        self.rewards.append(result[1])
        return result


def make(task_id: str = TASK, **kw) -> RewardLog:
    return RewardLog(gym.make("MobileGym-v0", task=task_id, obs_parts=("a11y",), reward_mode="shaped", **kw))


def plan(name: str):
    return next(p for p in plans_for(TASK) if p.name == name)


def tap(env: RewardLog, rid: str) -> None:
    node = next(n for n in parse_nodes(env.unwrapped.device.a11y_xml()) if n.short_id == rid)
    env.step({"type": "tap", "x": node.center[0], "y": node.center[1]})


def open_network_page(env: RewardLog) -> None:
    env.reset(seed=0, options={"task": TASK})
    env.step({"type": "open_app", "app": "settings"})
    tap(env, "network_entry")


@pytest.mark.parametrize("task_id, seed", [(TASK, 0), (TASK, 1), ("settings.wifi_off", 0)])
def test_oracle_earns_progress_then_the_score(task_id: str, seed: int) -> None:
    env = make(task_id)
    oracle = next(p for p in plans_for(task_id) if p.expect_success)
    reward, info, _ = run_plan(env, task_id, oracle, seed)
    assert env.rewards == [0.0, 0.0, 1.0, 1.0] and reward == 1.0
    assert info["judge"]["success"] and info["judge"]["clean"]


def test_side_effect_costs_a_penalty_and_false_complete_another() -> None:
    env = make()
    reward, info, _ = run_plan(env, TASK, plan("flips airplane mode instead of Wi-Fi"), 0)
    assert len(info["judge"]["side_effects"]) == 1
    assert env.rewards == pytest.approx([0.0, 0.0, -SHAPED_PENALTIES["side_effect"],
                                         -SHAPED_PENALTIES["false_complete"]])


def test_undoing_a_side_effect_refunds_its_penalty() -> None:
    env = make()
    open_network_page(env)
    tap(env, "airplane_mode_row")
    tap(env, "airplane_mode_row")
    assert env.rewards == pytest.approx([0.0, 0.0, -SHAPED_PENALTIES["side_effect"], SHAPED_PENALTIES["side_effect"]])


def test_no_op_agent_earns_nothing() -> None:
    env = make(max_steps=3)
    env.reset(seed=0, options={"task": TASK})
    for _ in range(3):
        *_, truncated, info = env.step(WAIT)
    assert truncated and env.rewards == [0.0, 0.0, 0.0] and not info["judge"]["success"]


def test_false_complete_is_penalised() -> None:
    env = make()
    env.reset(seed=0, options={"task": TASK})
    _, reward, terminated, _, _ = env.step({"type": "complete"})
    assert terminated and reward == -SHAPED_PENALTIES["false_complete"]


def test_reaching_the_goal_without_declaring_it_is_penalised_at_truncation() -> None:
    env = make(max_steps=4)
    open_network_page(env)
    tap(env, "wifi_row")
    _, reward, terminated, truncated, info = env.step(WAIT)
    assert truncated and not terminated and info["judge"]["success"]
    assert env.rewards == [0.0, 0.0, 1.0, 1.0 - SHAPED_PENALTIES["undeclared_goal"]]


def test_penalties_can_be_overridden_and_are_validated() -> None:
    env = make(shaped_penalties={"false_complete": 1.0})
    env.reset(seed=0, options={"task": TASK})
    assert env.step({"type": "complete"})[1] == -1.0
    with pytest.raises(ValueError, match="unknown shaped penalty 'lazy'"):
        make(shaped_penalties={"lazy": 1.0})
    with pytest.raises(ValueError, match="finite number >= 0"):
        resolve_penalties({"side_effect": -0.1})
    with pytest.raises(ValueError, match="only apply to reward_mode='shaped'"):
        MobileGymEnv(TASK, reward_mode="dense", shaped_penalties={"side_effect": 0.0})


def test_snapshot_restores_the_potential() -> None:
    env = make()
    open_network_page(env)
    snap = env.unwrapped.snapshot()
    tap(env, "airplane_mode_row")
    env.unwrapped.restore(snap)
    tap(env, "wifi_row")
    assert env.rewards[-1] == 1.0  # the airplane-mode penalty was undone with the snapshot, not refunded


def test_a_task_error_is_never_charged_to_the_agent() -> None:
    error = JudgeResult.from_error(TASK, "KeyError: 'wifi'")
    assert final_reward(error, Potential(), "complete", False, SHAPED_PENALTIES) == 0.0
    assert final_reward(error, Potential(), "tap", True, SHAPED_PENALTIES) == 0.0


def test_view_state_is_not_penalised() -> None:
    """Pausing and playing music is the app's view state: no side-effect penalty, unlike a harmful change."""
    env = make("music.LikeSong")
    env.reset(seed=0)
    env.unwrapped.device.set_state({"apps": {"music": {"player": {"playing": True}}}})
    env.step(WAIT)
    result = env.unwrapped.judge_now()
    assert result.side_effects and not any(e["harmful"] for e in result.side_effects)
    assert env.rewards == [0.0]
    env.unwrapped.device.set_state({"apps": {"music": {"playlists[id=pl_4]": None}}})
    env.step(WAIT)
    assert env.rewards[-1] < -SHAPED_PENALTIES["side_effect"] + 1e-9
