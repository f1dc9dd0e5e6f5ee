"""AsyncChatEnv: 120 episodes at once in one event loop against a real loopback HTTP model server,
with the model's requests and the phone's steps each kept within their bounds."""
from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import numpy as np
import pytest

from mobilegym.agentic import AsyncChatEnv, ChatEnv, StepPool
from mobilegym.eval.agents.openai.client import ChatClient
from tests.test_eval_openai_agent import Out, ScriptedServer, ok

EPISODES = 120
MODEL_LIMIT = 6
STEP_LIMIT = 2
MAKE = dict(task="clock.CountAlarms", render_scale=0.1, world="canonical", eval_mode="text")


def model(body: dict[str, Any]) -> Out:
    """A fake model: opens Clock on the first step, then answers the count (4 in the canonical world)."""
    text = body["messages"][-1]["content"][-1]["text"]
    step = int(re.search(r"^Step (\d+)", text, re.MULTILINE).group(1))
    action = {"type": "open_app", "app": "Clock"} if step == 1 else {"type": "complete", "text": "4"}
    return Out(**{**ok(json.dumps(action), usage=(900, 20)).__dict__, "delay": 0.01})


async def _episode(env: AsyncChatEnv, client: ChatClient, seed: int) -> tuple[float, int, np.ndarray]:
    messages, _ = await env.reset(seed=seed)
    first = env.unwrapped.observe()["screenshot"]
    steps, reward = 0, 0.0
    while True:
        completion = await client.complete(messages)
        messages, reward, terminated, truncated, info = await env.step(completion.text)
        steps += 1
        if terminated or truncated:
            assert info["judge"]["success"] is True
            return reward, steps, first


def test_many_episodes_share_bounded_model_and_step_concurrency() -> None:
    pool = StepPool(STEP_LIMIT)
    envs = [AsyncChatEnv(pool=pool, **MAKE) for _ in range(EPISODES)]
    with ScriptedServer([model] * (2 * EPISODES)) as server:
        client = ChatClient(server.url, "fake-vl", max_concurrency=MODEL_LIMIT, max_retries=0, timeout_s=30)

        async def play() -> list[tuple[float, int, np.ndarray]]:
            return await asyncio.gather(*(_episode(env, client, i) for i, env in enumerate(envs)))

        results = asyncio.run(play())
    pool.close()
    assert [(reward, steps) for reward, steps, _ in results] == [(1.0, 2)] * EPISODES
    assert len(server.requests) == 2 * EPISODES
    assert 1 < server.max_in_flight <= MODEL_LIMIT  # the model's bound, reached and never exceeded
    assert pool.peak == STEP_LIMIT and pool.running == 0  # the phone's bound, reached and never exceeded
    # the threads change nothing: the same seed gives the same first screen as a ChatEnv stepped in line
    chat = ChatEnv(**MAKE)
    chat.reset(seed=7)
    assert np.array_equal(chat.unwrapped.observe()["screenshot"], results[7][2])
    for env in envs:
        env.close()


def test_forks_and_bad_input() -> None:
    pool = StepPool(1)

    async def run() -> None:
        env = AsyncChatEnv(pool=pool, **MAKE)
        with pytest.raises(RuntimeError, match="call reset"):
            await env.step("{}")
        first, _ = await env.reset(seed=0)
        twins = env.fork(2)
        assert all(twin.pool is pool for twin in twins)
        steps = await asyncio.gather(*(twin.step('{"type": "open_app", "app": "Clock"}') for twin in twins))
        assert steps[0][0] == steps[1][0] and steps[0][4]["app"] == "clock"
        assert env.unwrapped.steps == 0
        env.close()

    asyncio.run(run())
    pool.close()
    with pytest.raises(ValueError, match="max_workers must be an integer >= 1"):
        StepPool(0)
