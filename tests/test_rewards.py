"""Reward rules (mobilegym.rewards): each mode's rewards, rules passed directly, their running state through
snapshots, forks and vector envs, and the errors of a bad reward option."""
from __future__ import annotations

from typing import Any

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym import rewards, wrappers
from mobilegym.env import MobileGymEnv
from mobilegym.oracle import plans_for, run_plan
from mobilegym.rewards import (REWARD_MODES, AutoCompleteReward, DenseReward, FinalReward, RewardRule, ShapedReward,
                               reward_rule)
from mobilegym.screen_text import parse_nodes
from mobilegym.shaping import SHAPED_PENALTIES, Potential
from mobilegym.vector import BatchedAsyncVectorEnv

from .uitools import CORE_APPS

TASK = "settings.ToggleWifi"
WAIT = {"type": "wait", "seconds": 1}
SIDE_EFFECT = SHAPED_PENALTIES["side_effect"]
# the oracle of settings.ToggleWifi (open Settings, the network page, toggle Wi-Fi, complete), per mode
ORACLE_REWARDS = {"final": [0.0, 0.0, 0.0, 1.0], "auto_complete": [0.0, 0.0, 1.0], "dense": [0.0, 0.0, 1.0, 1.0],
                  "shaped": [0.0, 0.0, 1.0, 1.0]}


class RewardLog(gym.Wrapper):
    """Keeps the rewards of the current episode, and the judge's progress at reset and after each step."""

    def reset(self, **kwargs: Any) -> Any:
        self.rewards: list[float] = []
        out = self.env.reset(**kwargs)
        self.progress = [self._progress()]
        return out

    def step(self, action: Any) -> Any:
        out = self.env.step(action)
        self.rewards.append(out[1])
        self.progress.append(self._progress())
        return out

    def _progress(self) -> float:
        env = self.env.unwrapped
        return env.episode.progress(answer=env.answer)


def make(mode: Any = "dense", task: str = TASK, **kw: Any) -> RewardLog:
    kw = {"obs_parts": ("a11y",), "apps": CORE_APPS, **kw}
    return RewardLog(gym.make("MobileGym-v0", task=task, reward_mode=mode, **kw))


def tap(env: gym.Env, rid: str | None = None, text: str | None = None) -> tuple:
    node = next(n for n in parse_nodes(env.unwrapped.device.a11y_xml())
                if (rid is None or n.short_id == rid) and (text is None or n.text == text))
    return env.step({"type": "tap", "x": node.center[0], "y": node.center[1]})


def network_page(env: gym.Env, seed: int = 0) -> None:
    env.reset(seed=seed)
    tap(env, text="Settings")
    tap(env, "network_entry")


def oracle(task: str = TASK) -> Any:
    return next(p for p in plans_for(task) if p.expect_success)


def toggle_wifi(env: RewardLog) -> None:
    """The oracle of settings.ToggleWifi, stopping where the episode ends."""
    network_page(env)
    if not tap(env, "wifi_row")[2]:
        env.step({"type": "complete"})


# --- the modes and their rules --------------------------------------------------------------------------

def test_each_mode_names_its_rule_and_the_list_is_one() -> None:
    assert REWARD_MODES == ("final", "auto_complete", "dense", "shaped")
    assert [rewards.REWARD_RULES[m] for m in REWARD_MODES] == [FinalReward, AutoCompleteReward, DenseReward,
                                                              ShapedReward]
    assert wrappers.REWARD_MODES is REWARD_MODES
    for mode in REWARD_MODES:
        env = MobileGymEnv(TASK, reward_mode=mode, obs_parts=("a11y",))
        assert env.reward_mode == mode and type(env.reward_rule) is rewards.REWARD_RULES[mode]


@pytest.mark.parametrize("mode", REWARD_MODES)
def test_a_rule_passed_directly_pays_as_its_name(mode: str) -> None:
    by_name, by_rule = make(mode), make(rewards.REWARD_RULES[mode]())
    for env in (by_name, by_rule):
        toggle_wifi(env)
    assert by_name.rewards == by_rule.rewards == ORACLE_REWARDS[mode]
    assert by_rule.unwrapped.reward_mode == mode


def test_final_pays_only_the_last_step() -> None:
    env = make("final", max_steps=4)
    network_page(env)
    tap(env, "wifi_row")  # the goal holds now, but nothing is paid before the end
    *_, truncated, info = env.step(WAIT)
    assert truncated and env.rewards == [0.0, 0.0, 0.0, 1.0] and info["judge"]["success"]


def test_auto_complete_ends_on_the_step_the_goal_holds() -> None:
    env = make("auto_complete")
    network_page(env)
    assert not env.unwrapped.judge_now().success
    _, reward, terminated, truncated, info = tap(env, "wifi_row")
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["judge"]["success"] and info["step"] == 3
    with pytest.raises(RuntimeError, match="the episode has ended"):
        env.step(WAIT)


def test_auto_complete_never_ends_early_when_the_goal_does_not_hold() -> None:
    env = make("auto_complete", max_steps=3)
    network_page(env)
    _, reward, terminated, truncated, info = tap(env, "airplane_mode_row")
    assert (reward, terminated, truncated) == (0.0, False, True) and not info["judge"]["success"]


@pytest.mark.parametrize("task", ["settings.ToggleWifi", "clock.CountAlarms", "clock.AddAlarm"])
def test_dense_rewards_telescope_to_the_score(task: str) -> None:
    """Each step but the last pays the change in progress, the last pays the score: a return is the progress
    before the last step, less the progress at reset, plus the score, for every plan."""
    env = make("dense", task, apps=None)
    for plan in plans_for(task):
        _, info, _ = run_plan(env, task, plan, 1)
        steps = env.rewards[:-1]
        assert steps == pytest.approx([b - a for a, b in zip(env.progress, env.progress[1:-1])])
        assert env.rewards[-1] == info["judge"]["score"]
        assert sum(env.rewards) == pytest.approx(env.progress[-2] - env.progress[0] + info["judge"]["score"])


def test_dense_pays_back_lost_progress_as_a_negative_reward() -> None:
    env = make("dense")
    network_page(env)
    assert tap(env, "wifi_row")[1] == 1.0 and env.unwrapped.reward_rule.progress == 1.0
    assert tap(env, "wifi_row")[1] == -1.0 and env.unwrapped.reward_rule.progress == 0.0


def test_shaped_penalties_reach_the_rule() -> None:
    env = make("shaped", shaped_penalties={"false_complete": 1.0})
    assert env.unwrapped.reward_rule.penalties == {**SHAPED_PENALTIES, "false_complete": 1.0}
    env.reset(seed=0)
    assert env.step({"type": "complete"})[1] == -1.0
    direct = make(ShapedReward({"false_complete": 1.0}))
    direct.reset(seed=0)
    assert direct.step({"type": "complete"})[1] == -1.0


def test_a_rule_of_ones_own() -> None:
    class StepCost(FinalReward):
        """The final score, less 0.01 per step before the last."""

        mode = "step_cost"
        pays_every_step = True

        def step(self, episode: Any, answer: str | None) -> float:
            return -0.01

    env = make(StepCost())
    toggle_wifi(env)
    assert env.rewards == [-0.01, -0.01, -0.01, 1.0] and env.unwrapped.reward_mode == "step_cost"


# --- running state: every env its own, snapshots and forks carry it -------------------------------------

def test_envs_made_from_one_rule_keep_their_own_state() -> None:
    rule = DenseReward()
    first, second = make(rule), make(rule)
    assert first.unwrapped.reward_rule is not rule and second.unwrapped.reward_rule is not first.unwrapped.reward_rule
    network_page(first)
    tap(first, "wifi_row")
    network_page(second)
    assert (first.unwrapped.reward_rule.progress, second.unwrapped.reward_rule.progress, rule.progress) == (1, 0, 0)
    assert tap(second, "wifi_row")[1] == 1.0


def test_restore_brings_back_the_progress_each_time() -> None:
    env = make("dense")
    network_page(env)
    tap(env, "wifi_row")
    snap = env.unwrapped.snapshot()
    for _ in range(2):  # each restore its own copy: the first one's play does not leak into the second
        assert tap(env, "wifi_row")[1] == -1.0
        env.unwrapped.restore(snap)
        assert env.unwrapped.reward_rule.progress == 1.0
        assert env.step(WAIT)[1] == 0.0  # without the restored progress this would pay +1 again


def test_restore_brings_back_the_potential() -> None:
    env = make("shaped")
    network_page(env)
    tap(env, "airplane_mode_row")  # a harmful side effect: -0.1
    snap = env.unwrapped.snapshot()
    tap(env, "airplane_mode_row")  # undone: +0.1
    env.unwrapped.restore(snap)
    assert env.unwrapped.reward_rule.potential == Potential(0.0, 1)
    assert tap(env, "airplane_mode_row")[1] == pytest.approx(SIDE_EFFECT)
    assert env.rewards == pytest.approx([0.0, 0.0, -SIDE_EFFECT, SIDE_EFFECT, SIDE_EFFECT])


@pytest.mark.parametrize("mode", ["dense", "shaped"])
def test_forks_carry_the_running_state_and_move_it_apart(mode: str) -> None:
    env = make(mode)
    network_page(env)
    tap(env, "wifi_row")  # progress 1
    left, right = env.unwrapped.fork(2)
    assert left.reward_rule is not env.unwrapped.reward_rule and vars(left.reward_rule) == vars(
        env.unwrapped.reward_rule)
    assert tap(left, "wifi_row")[1] == -1.0  # the fork knew the progress it had
    assert right.step(WAIT)[1] == 0.0  # untouched by its sibling
    assert env.step(WAIT)[1] == 0.0  # nor the original
    assert left.step({"type": "complete"})[1] == (0.0 if mode == "dense" else -SHAPED_PENALTIES["false_complete"])


def test_a_fork_auto_completes_like_its_original() -> None:
    env = make("auto_complete")
    network_page(env)
    fork = env.unwrapped.fork()[0]
    assert tap(fork, "wifi_row")[1:3] == (1.0, True)
    assert tap(env, "wifi_row")[1:3] == (1.0, True)


class Taps(gym.ActionWrapper):
    """Discrete actions for the vector test: tap one of ``TARGETS`` (by text or resource-id)."""

    TARGETS = ({"text": "Settings"}, {"rid": "network_entry"}, {"rid": "wifi_row"}, {"rid": "airplane_mode_row"})

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.action_space = gym.spaces.Discrete(len(self.TARGETS))

    def action(self, index: int) -> dict:
        want = self.TARGETS[int(index)]
        node = next(n for n in parse_nodes(self.env.unwrapped.device.a11y_xml())
                    if n.text == want.get("text", n.text) and n.short_id == want.get("rid", n.short_id))
        return {"type": "tap", "x": node.center[0], "y": node.center[1]}


def tapping_env(mode: Any) -> gym.Env:
    return Taps(gym.make("MobileGym-v0", task=TASK, obs_parts=("screenshot",), render_scale=0.1, apps=CORE_APPS,
                         reward_mode=mode))


@pytest.mark.parametrize("mode, rewards_0, rewards_1, state", [
    ("final", [0, 0, 0], [0, 0, 0], None),
    ("auto_complete", [0, 0, 1], [0, 0, 0], None),
    ("dense", [0, 0, 1], [0, 0, 0], ("progress", [1.0, 0.0])),
    (ShapedReward(), [0, 0, 1], [0, 0, -SIDE_EFFECT], ("potential", [Potential(1.0, 0), Potential(0.0, 1)])),
])
def test_vector_envs_carry_the_rule_and_its_state(mode: Any, rewards_0: list, rewards_1: list, state: Any) -> None:
    """Two envs in one worker process, made from the same options: env 0 toggles Wi-Fi, env 1 airplane mode."""
    envs = BatchedAsyncVectorEnv([lambda: tapping_env(mode)] * 2, envs_per_worker=2)
    try:
        envs.reset(seed=[0, 1])
        got = [envs.step([a, b])[1].tolist() for a, b in ((0, 0), (1, 1), (2, 3))]
        assert [r[0] for r in got] == rewards_0 and [r[1] for r in got] == pytest.approx(rewards_1)
        rules = envs.get_attr("reward_rule")
        assert {rule.mode for rule in rules} == {mode if isinstance(mode, str) else mode.mode}
        if state is not None:
            assert [getattr(rule, state[0]) for rule in rules] == state[1]
    finally:
        envs.close()


# --- bad options ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, message", [
    ({"reward_mode": "sparse"}, r"reward_mode must be one of 'final', 'auto_complete', 'dense', 'shaped' or a "
                                r"RewardRule, got 'sparse'"),
    ({"reward_mode": ["dense"]}, "reward_mode must be one of"),
    ({"reward_mode": DenseReward}, "reward_mode must be one of"),  # the class, not a rule
    ({"reward_mode": "dense", "shaped_penalties": {"side_effect": 0.0}},
     "shaped_penalties only apply to reward_mode='shaped', got reward_mode='dense'"),
    ({"reward_mode": ShapedReward(), "shaped_penalties": {"side_effect": 0.0}}, "takes its own"),
    ({"reward_mode": "shaped", "shaped_penalties": {"lazy": 1.0}}, "unknown shaped penalty 'lazy'"),
])
def test_bad_reward_options_name_the_problem(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MobileGymEnv(TASK, **kwargs)


def test_a_bad_rule_fails_where_it_is_made() -> None:
    with pytest.raises(ValueError, match="finite number >= 0"):
        ShapedReward({"side_effect": float("nan")})
    assert isinstance(reward_rule("final"), RewardRule)
    with pytest.raises(ValueError, match="reward must be one of"):
        wrappers.make_sb3_env(TASK, reward="sparse")
