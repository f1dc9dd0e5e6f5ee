"""mobilegym.ray.EnvPool on a local `ray start --head` cluster: parity with a local env, fork, async steps,
named errors for a failing env and a dead actor, close."""
from __future__ import annotations

import asyncio
import sys
import time

import gymnasium as gym
import numpy as np
import pytest

import mobilegym  # noqa: F401  (registers the env ids)

ray = pytest.importorskip("ray")  # scripts/setup.sh installs it: these tests run in CI

from mobilegym.ray import (ActorDiedError, BatchError, EnvCreateError, EnvError, EnvFuture, EnvLostError,  # noqa: E402
                           EnvPool, PoolClosedError, UnknownEnvError, require_ray)

from .ray_support import RayHead  # noqa: E402
from .test_env import center  # noqa: E402

pytestmark = pytest.mark.slow
RL = dict(task="settings.ToggleWifi", render_scale=0.1, obs_parts=("screenshot", "a11y", "text", "instruction"))
ACTIONS = [{"type": "tap", "x": 540, "y": 1200}, {"type": "swipe", "x": 540, "y": 1800, "x2": 540, "y2": 600},
           {"type": "key", "key": "home"}, {"type": "open_app", "app": "clock"}, {"type": "complete"}]
WAIT = {"type": "wait", "seconds": 1}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory):
    """A 2-CPU head and this process connected to it; pools made without an address use the connection."""
    head = RayHead(tmp_path_factory.mktemp("ray"), num_cpus=2)
    try:
        ray.init(address=head.address, log_to_driver=False, include_dashboard=False, configure_logging=False)
        yield head.address
    finally:
        ray.shutdown()
        head.stop()


def same_obs(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        np.array_equal(a[k], b[k]) and a[k].dtype == b[k].dtype if isinstance(b[k], np.ndarray) else a[k] == b[k]
        for k in b)


def oracle_actions(seed: int) -> list[dict]:
    """The actions of a plan that solves settings.ToggleWifi, recorded on a local env."""
    from mobilegym.oracle import plans_for, run_plan

    class Recorder(gym.Wrapper):
        actions: list = []

        def step(self, action):  # noqa: ANN001, ANN201
            self.actions.append(action)
            return self.env.step(action)

    recorder = Recorder(gym.make("MobileGym-v0", **RL))
    recorder.actions = []
    plan = next(p for p in plans_for("settings.ToggleWifi") if p.expect_success)
    assert run_plan(recorder, "settings.ToggleWifi", plan, seed=seed)[0] == 1.0
    recorder.close()
    return recorder.actions


def test_pool_envs_match_local_envs_byte_for_byte(cluster: str) -> None:
    solved = oracle_actions(seed=3)
    with EnvPool(2, **RL) as pool:
        assert pool.num_actors == 2 and pool.env_ids == [0, 1]
        locals_ = [gym.make("MobileGym-v0", **RL) for _ in range(2)]
        for seeds, episodes in (([0, 7], [ACTIONS, ACTIONS]), ([3, 3], [solved, ACTIONS])):
            got = pool.reset(seed=seeds)
            for (obs, info), env, seed in zip(got, locals_, seeds):
                lo, li = env.reset(seed=seed)
                assert same_obs(obs, lo) and info == li
            live, last = [0, 1], {}
            for t in range(max(map(len, episodes))):
                live = [e for e in live if t < len(episodes[e])]
                if not live:
                    break
                results = pool.step([episodes[e][t] for e in live], env_ids=live)
                for e, result in zip(live, results):
                    expected = locals_[e].step(episodes[e][t])
                    assert same_obs(result[0], expected[0]) and result[1:] == expected[1:]
                    last[e] = result
                live = [e for e, r in zip(live, results) if not (r[2] or r[3])]
        assert last[0][1] == 1.0 and last[0][4]["judge"]["success"]  # the oracle's plan paid, as locally
        for env in locals_:
            env.close()


def test_forks_start_identical_and_move_apart_independently(cluster: str) -> None:
    with EnvPool(2, **RL) as pool:
        (obs, _), _ = pool.reset(seed=[3, 4])
        obs, *_ = pool.step([center(obs, text="Settings")], env_ids=[0])[0]
        obs, *_ = pool.step([center(obs, rid="network_entry")], env_ids=[0])[0]
        here = pool.fork(0, 2)
        there = pool.fork(0, 2, spread=True)
        homes = {e: info["env_ids"] for e, info in pool.placement().items()}
        assert set(here) <= set(homes[0]) and any(e in homes[1] for e in there)  # spread: the other actor too
        state = pool.call(0, "state")
        assert state["steps"] == 2
        for fork in here + there:
            assert same_obs(pool.call(fork, "observe"), obs) and pool.call(fork, "state") == state
        right, wrong, *others = here + there
        pool.step([center(obs, rid="wifi_row"), center(obs, rid="airplane_mode_row")], env_ids=[right, wrong])
        assert same_obs(pool.call(0, "observe"), obs)  # neither the original nor the other forks moved
        assert all(same_obs(pool.call(e, "observe"), obs) for e in others)
        done = pool.step([{"type": "complete"}] * 3, env_ids=[right, wrong, 0])
        assert [r[1] for r in done] == [1.0, 0.0, 0.0] and all(r[2] for r in done)
        for fork in others:  # a fork that travelled plays exactly as one made in place
            pool.step([center(obs, rid="wifi_row")], env_ids=[fork])
        assert same_obs(pool.call(others[0], "observe"), pool.call(others[1], "observe"))
        pool.remove(here + there)
        assert pool.env_ids == [0, 1]
        with pytest.raises(UnknownEnvError, match="no env 2"):
            pool.call(here[0], "state")


def test_async_steps_are_awaitable_refs_in_the_order_they_were_sent(cluster: str) -> None:
    with EnvPool(3, envs_per_actor=2, **RL) as pool:
        first = pool.reset_async(seed=[5, 5, 5])
        assert all(isinstance(f, EnvFuture) and isinstance(f.ref, ray.ObjectRef) for f in first)
        reset = [f.result() for f in first]
        # two steps in flight on env 0 before either is collected: they run in the order sent
        one, two = pool.step_async([ACTIONS[0]], [0])[0], pool.step_async([ACTIONS[1]], [0])[0]
        sync = pool.step([ACTIONS[0]], env_ids=[1])[0]
        done, pending = pool.wait([one, two], num_returns=2)
        assert {id(f) for f in done} == {id(one), id(two)} and not pending
        assert same_obs(one.result()[0], sync[0])
        assert same_obs(pool.step([ACTIONS[1]], env_ids=[1])[0][0], two.result()[0])

        async def trainer() -> list:
            futures = pool.step_async([WAIT, WAIT], [1, 2])  # the env steps run while the "model" thinks
            await asyncio.sleep(0)
            return [await f for f in futures] + await pool.astep([WAIT], [2])

        stepped = asyncio.run(trainer())
        assert len(stepped) == 3 and stepped[0][4]["step"] == 3 and stepped[2][4]["step"] == 2
        assert same_obs(reset[0][0], reset[2][0])


def _until_gone(actor, timeout_s: float = 60.0) -> None:
    """Return once ``actor`` answers no more (its death is known to Ray); fail after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            ray.get(actor.where.remote(), timeout=5)
        except ray.exceptions.RayActorError:
            return
        except ray.exceptions.GetTimeoutError:
            continue
        time.sleep(0.05)
    pytest.fail(f"the killed actor still answered after {timeout_s} s")


def test_one_env_failing_or_one_actor_dying_leaves_the_others_working(cluster: str) -> None:
    with pytest.raises(EnvCreateError, match="no.such"):
        EnvPool(1, task="no.such", render_scale=0.1)
    with EnvPool(4, envs_per_actor=2, **RL) as pool:
        with pytest.raises(BatchError) as caught:
            pool.step([WAIT] * 4)  # before any reset
        assert set(caught.value.errors) == {0, 1, 2, 3}
        assert all(isinstance(e, EnvError) and e.op == "step" for e in caught.value.errors.values())
        pool.reset(seed=0)
        results = pool.step([{"type": "fly"}, WAIT, WAIT, WAIT], return_errors=True)
        bad = results[0]
        assert isinstance(bad, EnvError) and bad.env_id == 0 and bad.kind == "InvalidAction" and "fly" in bad.message
        assert "Traceback" in bad.remote_traceback and all(r[4]["step"] == 1 for r in results[1:])
        with pytest.raises(EnvError, match="env 3 failed to step: InvalidAction"):
            pool.step_async([{"type": "tap"}], [3])[0].result()
        assert pool.step([WAIT], env_ids=[0])[0][4]["step"] == 1  # the failed env goes on where it was
        with pytest.raises(UnknownEnvError):
            pool.step([WAIT], env_ids=[9])
        with pytest.raises(ValueError, match="one action per env"):
            pool.step([WAIT])
        with pytest.raises(ValueError, match="once in a batch"):
            pool.step([WAIT, WAIT], env_ids=[1, 1])
        with pytest.raises(ValueError, match="seed must be"):
            pool.reset(seed=[1, 2])
        with pytest.raises(ValueError, match="cannot be called"):
            pool.call(0, "close")

        doomed = pool.actor_of(0)
        ray.kill(doomed, no_restart=True)  # the actor holding envs 0 and 1 goes away, as a lost node would
        _until_gone(doomed)  # a kill is asynchronous: calls already on their way may still be served
        results = pool.step([WAIT] * 4, return_errors=True)
        assert all(isinstance(r, ActorDiedError) and r.env_ids == [0, 1] for r in results[:2])
        assert [r[4]["step"] for r in results[2:]] == [2, 2]
        assert pool.lost == [0, 1]
        with pytest.raises(EnvLostError, match="env 1 was lost"):
            pool.step_async([WAIT], [1])
        with pytest.raises(EnvLostError):
            pool.fork(0, 2)
        group = pool.fork(2, 2, spread=True)  # spreading skips the dead actor
        assert set(group) <= set(pool.placement()[1]["env_ids"])
        pool.remove(pool.lost)
        assert pool.env_ids == [2, 3, *group] and len(pool.step([WAIT] * 4)) == 4


def test_close_ends_the_actors_and_the_pool(cluster: str) -> None:
    pool = EnvPool(2, envs_per_actor=1, **RL)
    actors = [pool.actor_of(0), pool.actor_of(1)]
    pool.reset(seed=0)
    pool.close()
    pool.close()  # twice is fine
    with pytest.raises(PoolClosedError):
        pool.step([WAIT, WAIT], env_ids=[0, 1])
    for actor in actors:
        with pytest.raises(ray.exceptions.RayActorError):
            ray.get(actor.where.remote(), timeout=60)
    assert ray.is_initialized()  # the pool did not make this connection, so it leaves it open


def test_ray_is_imported_lazily_with_a_named_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r"mobilegym\[ray\]"):
        require_ray()
    with pytest.raises(ImportError, match=r"mobilegym\[ray\]"):
        EnvPool(1)
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        EnvPool(0)  # bad arguments are told before Ray is needed
