"""BatchedAsyncVectorEnv: several envs per worker process, same results as gymnasium's SyncVectorEnv."""
from __future__ import annotations

import multiprocessing
import time
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.error import ClosedEnvironmentError
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import mobilegym.wrappers  # noqa: F401  (registers MobileGymSB3-v0)
from mobilegym.vector import BatchedAsyncVectorEnv, make_batched_vec
from mobilegym.wrappers import SB3_ENV_ID, make_sb3_env

from .uitools import CORE_APPS

KWARGS = dict(task="home.OpenApp", obs="multi", action="element", extra_actions=("back", "home", "complete"),
              apps=CORE_APPS, shuffle_launcher=True, max_steps=3)
BACK, HOME, COMPLETE = 32, 33, 34
NUM_ENVS = 3


def sb3_fns(count: int = NUM_ENVS) -> list:
    return [lambda: make_sb3_env(**KWARGS)] * count


class Countdown(gym.Env):
    """A tiny env: observation = steps left; action 1 ends the episode, action 2 raises."""

    observation_space = spaces.Box(0, 10, (1,), np.float32)
    action_space = spaces.Discrete(3)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.left = 5
        self.tag = getattr(self, "tag", None)
        return np.array([self.left], np.float32), {"seed": seed}

    def step(self, action: int):
        if action == 2:
            raise RuntimeError("boom: action 2")
        self.left -= 1
        return np.array([self.left], np.float32), 1.0, action == 1, self.left == 0, {}


def assert_same(got: Any, want: Any, path: str = "") -> None:
    """Equal observations/infos, recursing through dicts and object arrays."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{path}: keys {set(got)} != {set(want)}"
        for key in want:
            assert_same(got[key], want[key], f"{path}.{key}")
    elif isinstance(want, (list, tuple)) or isinstance(want, np.ndarray) and want.dtype == object:
        assert len(got) == len(want), path
        for index, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{path}[{index}]")
    elif isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and np.array_equal(got, want), path
    else:
        assert got == want, path


def rollout(envs: gym.vector.VectorEnv, steps: int = 9) -> list[tuple]:
    """Seeded random actions (completing often); DISABLED mode resets finished envs by mask."""
    rng = np.random.default_rng(7)
    out = [envs.reset(seed=[11, 12, 13])]
    for _ in range(steps):
        actions = rng.choice([COMPLETE, BACK, HOME, 0, 1, 2], size=NUM_ENVS)
        out.append(envs.step(actions))
        done = out[-1][2] | out[-1][3]
        if envs.metadata["autoreset_mode"] == AutoresetMode.DISABLED and done.any():
            out.append(envs.reset(options={"reset_mask": done}))
    return out


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_matches_sync_vector_env_in_every_autoreset_mode(mode: AutoresetMode) -> None:
    reference = SyncVectorEnv(sb3_fns(), autoreset_mode=mode)
    want = rollout(reference)
    reference.close()
    envs = BatchedAsyncVectorEnv(sb3_fns(), envs_per_worker=2, autoreset_mode=mode)  # workers of 2 and 1 envs
    try:
        assert [list(r) for r in envs.worker_envs] == [[0, 1], [2]]
        assert envs.single_action_space == reference.single_action_space
        assert envs.observation_space == reference.observation_space
        got = rollout(envs)
    finally:
        envs.close()
    assert len(got) == len(want)
    for step, (g, w) in enumerate(zip(got, want)):
        assert_same(list(g), list(w), f"step {step}")
    finished = sum(int((w[2] | w[3]).sum()) for w in want if len(w) == 5)
    assert finished >= 3  # the rollout really crossed episode boundaries


def test_reset_mask_resets_only_the_selected_envs() -> None:
    envs = BatchedAsyncVectorEnv(sb3_fns(), envs_per_worker=2)
    try:
        envs.reset(seed=[11, 12, 13])
        before, *_ = envs.step(np.array([BACK, HOME, BACK]))
        after, info = envs.reset(seed=[21, 22, 23], options={"reset_mask": np.array([False, True, False])})
        masks = [value for key, value in info.items() if key.startswith("_")]
        assert masks and all(mask.tolist() == [False, True, False] for mask in masks)
        fresh = make_sb3_env(**KWARGS)
        fresh_obs, _ = fresh.reset(seed=22)
        for key in before:
            assert np.array_equal(after[key][0], before[key][0]) and np.array_equal(after[key][2], before[key][2])
            assert np.array_equal(after[key][1], fresh_obs[key])
    finally:
        envs.close()


def test_malformed_actions_raise_before_any_env_moves() -> None:
    envs = BatchedAsyncVectorEnv([Countdown] * 4, envs_per_worker=2)
    try:
        envs.reset(seed=0)
        for bad, message in (([0, 0, 9, 0], "env index"), ([0, 0], "expected 4 actions"), ([0.5, 0, 0, 0], "0.5"),
                             ("tap", "action")):
            with pytest.raises(ValueError, match=message):
                envs.step(bad)
        obs, reward, *_ = envs.step(np.zeros(4, np.int64))
        assert obs.ravel().tolist() == [4, 4, 4, 4] and reward.tolist() == [1, 1, 1, 1]  # one step each, no more
    finally:
        envs.close()


def test_bad_parameters_name_the_problem() -> None:
    for value in (0, -1, True, "2", 1.5):
        with pytest.raises(ValueError, match="envs_per_worker"):
            BatchedAsyncVectorEnv([Countdown], envs_per_worker=value)
    with pytest.raises(ValueError, match="autoreset_mode"):
        BatchedAsyncVectorEnv([Countdown], autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="at least one"):
        BatchedAsyncVectorEnv([])
    with pytest.raises(ValueError, match="num_envs"):
        make_batched_vec(SB3_ENV_ID, 0, **KWARGS)
    envs = BatchedAsyncVectorEnv([Countdown] * 2)
    try:
        with pytest.raises(ValueError, match="2 seeds for|seeds for 2 envs"):
            envs.reset(seed=[1, 2, 3])
        for mask in (np.array([True]), np.array([1, 0]), [True, False], np.array([False, False])):
            with pytest.raises(ValueError, match="reset_mask"):
                envs.reset(options={"reset_mask": mask})
        with pytest.raises(ValueError, match="step"):
            envs.call("step", 0)
        with pytest.raises(ValueError, match="one value per env"):
            envs.set_attr("tag", [1, 2, 3])
        obs, info = envs.reset(seed=5)  # still usable after all the refusals
        assert info["seed"].tolist() == [5, 6]
    finally:
        envs.close()


def test_an_error_in_a_worker_is_raised_with_its_traceback_and_closes_the_env() -> None:
    envs = BatchedAsyncVectorEnv([Countdown] * 4, envs_per_worker=2)
    envs.reset(seed=0)
    processes = list(envs._processes)
    with pytest.raises(RuntimeError, match="boom") as caught:
        envs.step([0, 0, 0, 2])
    assert any("worker 1 (envs [2, 3])" in note and "Traceback" in note for note in caught.value.__notes__)
    assert envs.closed and not any(process.is_alive() for process in processes)
    with pytest.raises(ClosedEnvironmentError):
        envs.step([0, 0, 0, 0])


def test_a_broken_env_fails_at_construction_and_leaves_no_worker() -> None:
    def unknown_task() -> gym.Env:
        return make_sb3_env(**{**KWARGS, "task": "no.SuchTask"})
    before = set(multiprocessing.active_children())
    with pytest.raises(Exception, match="no.SuchTask") as caught:
        BatchedAsyncVectorEnv(sb3_fns(1) + [unknown_task], envs_per_worker=2)
    assert any("worker 0" in note for note in caught.value.__notes__)
    assert not (set(multiprocessing.active_children()) - before)


def test_envs_with_other_spaces_are_refused() -> None:
    class Wider(Countdown):
        action_space = spaces.Discrete(4)
    with pytest.raises(ValueError, match="unlike env 0"):
        BatchedAsyncVectorEnv([Countdown, Wider], envs_per_worker=1)


def test_call_get_attr_set_attr_and_render_reach_every_env() -> None:
    envs = BatchedAsyncVectorEnv(sb3_fns(), envs_per_worker=2)
    try:
        envs.reset(seed=0)
        masks = envs.call("action_masks")
        assert len(masks) == NUM_ENVS and all(mask.shape == (35,) and mask[BACK:].all() for mask in masks)
        envs.set_attr("tag", ["a", "b", "c"])
        assert envs.get_attr("tag") == ("a", "b", "c")
        envs.set_attr("tag", "same")
        assert envs.get_attr("tag") == ("same",) * NUM_ENVS
    finally:
        envs.close()
    envs.close()  # closing twice is harmless


def test_copy_false_hands_out_the_shared_buffer() -> None:
    envs = BatchedAsyncVectorEnv([Countdown] * 2, copy=False)
    try:
        first, _ = envs.reset(seed=0)
        second, *_ = envs.step([0, 0])
        assert second is first and first.ravel().tolist() == [4, 4]
    finally:
        envs.close()


def test_make_batched_vec_spreads_envs_and_works_with_spawn() -> None:
    envs = make_batched_vec(SB3_ENV_ID, 3, envs_per_worker=3, context="spawn", **KWARGS)
    try:
        assert [list(r) for r in envs.worker_envs] == [[0, 1, 2]]
        obs, _ = envs.reset(seed=[11, 12, 13])
        assert envs.observation_space.contains(obs)
        reference = SyncVectorEnv(sb3_fns())
        want, _ = reference.reset(seed=[11, 12, 13])
        reference.close()
        assert_same(obs, want)
    finally:
        envs.close()


def test_composes_with_gymnasium_vector_wrappers() -> None:
    envs = gym.wrappers.vector.RecordEpisodeStatistics(BatchedAsyncVectorEnv([Countdown] * 3, envs_per_worker=2))
    try:
        envs.reset(seed=0)
        for _ in range(5):  # Countdown truncates after 5 steps of action 0
            _, _, _, truncated, info = envs.step([0, 0, 0])
        assert truncated.all() and info["episode"]["l"].tolist() == [5, 5, 5]
        assert info["episode"]["r"].tolist() == [5.0, 5.0, 5.0]
    finally:
        envs.close()


def test_text_observations_travel_through_the_pipes() -> None:
    def raw() -> gym.Env:
        return gym.make("MobileGym-v0", task="home.OpenApp", apps=CORE_APPS, render_scale=0.1)
    actions = [({"type": "key", "key": "home"}, {"type": "open_app", "app": "clock"}, {"type": "complete"}),
               ({"type": "tap", "x": 540, "y": 1200},) * 3]
    reference = SyncVectorEnv([raw] * 3)
    want = [reference.reset(seed=4)] + [reference.step(a) for a in actions]
    reference.close()
    with pytest.raises(ValueError, match="shared_memory=True needs fixed-size"):
        BatchedAsyncVectorEnv([raw], shared_memory=True)
    envs = BatchedAsyncVectorEnv([raw] * 3, envs_per_worker=2)
    try:
        assert not envs.shared_memory
        got = [envs.reset(seed=4)] + [envs.step(a) for a in actions]
        with pytest.raises(ValueError, match=r"env index: action\): \{1: \{'type': 'bogus'\}\}"):
            envs.step(({"type": "wait", "seconds": 1}, {"type": "bogus"}, {"type": "wait", "seconds": 1}))
    finally:
        envs.close()
    assert isinstance(got[0][0]["a11y"], tuple) and got[0][0]["a11y"][0].startswith("<?xml")
    for step, (g, w) in enumerate(zip(got, want)):
        assert_same(list(g), list(w), f"step {step}")


def test_a_failed_call_raises_but_keeps_the_env_running() -> None:
    envs = BatchedAsyncVectorEnv([Countdown] * 3, envs_per_worker=2)
    try:
        envs.reset(seed=0)
        with pytest.raises(AttributeError, match="no_such_attribute") as caught:
            envs.get_attr("no_such_attribute")
        assert any("worker 0" in note for note in caught.value.__notes__)
        assert not envs.closed
        obs, *_ = envs.step([0, 0, 0])
        assert obs.ravel().tolist() == [4, 4, 4]
    finally:
        envs.close()


class Slow(Countdown):
    """Countdown whose action 0 sleeps a little (so a step can be caught pending)."""

    def step(self, action: int):
        if action == 0:
            time.sleep(0.3)
        return super().step(action)


def test_step_async_then_step_wait_equals_step() -> None:
    sync, split = (BatchedAsyncVectorEnv([Countdown] * 4, envs_per_worker=2) for _ in range(2))
    try:
        assert_same(split.reset(seed=3), sync.reset(seed=3))
        for actions in ([0, 0, 0, 0], [1, 0, 0, 1], [0, 0, 0, 0]):
            split.step_async(np.array(actions))
            assert_same(split.step_wait(), sync.step(np.array(actions)))
    finally:
        sync.close()
        split.close()


def test_step_wait_without_step_async_and_calls_while_pending_are_refused() -> None:
    from gymnasium.error import AlreadyPendingCallError, NoAsyncCallError

    envs = BatchedAsyncVectorEnv([Slow] * 2, envs_per_worker=1)
    try:
        envs.reset(seed=0)
        with pytest.raises(NoAsyncCallError, match="step_async"):
            envs.step_wait()
        with pytest.raises(ValueError, match="env index"):
            envs.step_async(np.array([0, 9]))  # a malformed action sends nothing: nothing is pending
        envs.step_async(np.array([0, 0]))
        with pytest.raises(multiprocessing.TimeoutError, match="within"):
            envs.step_wait(timeout=0.01)  # still stepping: the step stays pending
        for call in (lambda: envs.step(np.array([1, 1])), lambda: envs.reset(), lambda: envs.get_attr("left")):
            with pytest.raises(AlreadyPendingCallError, match="step_wait"):
                call()
        obs, reward, *_ = envs.step_wait(timeout=30)
        assert obs.ravel().tolist() == [4, 4] and reward.tolist() == [1, 1]
        assert envs.get_attr("left") == (4, 4)  # idle again
    finally:
        envs.close()


def test_a_failed_async_step_is_raised_by_step_wait_and_closes_the_env() -> None:
    envs = BatchedAsyncVectorEnv([Countdown] * 2, envs_per_worker=1)
    envs.reset(seed=0)
    envs.step_async(np.array([0, 2]))
    with pytest.raises(RuntimeError, match="boom"):
        envs.step_wait()
    assert envs.closed
