"""Threshold parameters have traps on both sides: on every matrix world, the plan of another world's threshold
(every other value the sampler could draw) gives another result, so a wrong reading cannot be paid."""
from __future__ import annotations

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.judge import copy_state
from mobilegym.tasks.shop.app import Shop

from .suites import SEEDS


@pytest.fixture(scope="module")
def env():
    return gym.make("MobileGym-v0", task=["shop.BuyBestRatedUnder"], eval_mode="text", obs_parts=("instruction",))


@pytest.mark.parametrize("seed", SEEDS)
def test_every_other_price_cap_buys_another_product(env, seed: int) -> None:
    _, info = env.reset(seed=seed, options={"task": "shop.BuyBestRatedUnder"})
    state = copy_state(env.unwrapped.device)["apps"]["shop"]
    pick, step = info["params"]["pick"], Shop.cap_step(state)
    assert Shop.best_under(state, pick["id"], pick["cap"])["id"] == pick["product"]
    top = max(p["price"] for p in state["products"] if p["category_id"] == pick["id"])
    same = [cap for cap in range(step, int(top) + 2 * step, step) if cap != pick["cap"]
            and (Shop.best_under(state, pick["id"], cap) or {}).get("id") == pick["product"]]
    assert not same, f"seed {seed}: the caps {same} buy the same product as {pick['cap_text']}"


@pytest.fixture(scope="module")
def files_env():
    return gym.make("MobileGym-v0", task=["files.DeleteOldDownloads"], eval_mode="text", obs_parts=("instruction",))


@pytest.mark.parametrize("seed", SEEDS)
def test_every_other_day_count_deletes_another_set(files_env, seed: int) -> None:
    from mobilegym.judge import sim_datetime
    from mobilegym.tasks.files.app import OLD_DAYS, Files

    _, info = files_env.reset(seed=seed, options={"task": "files.DeleteOldDownloads"})
    state = copy_state(files_env.unwrapped.device)
    files, now = Files(state["apps"]["files"]), sim_datetime(state["os"])
    days = info["params"]["age"]["days"]
    right = {f["id"] for f in files.older_than("Download", days, now)}
    same = [n for n in OLD_DAYS if n != days and {f["id"] for f in files.older_than("Download", n, now)} == right]
    assert right and not same, f"seed {seed}: older than {same} is the same set as older than {days}"
