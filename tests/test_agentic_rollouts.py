"""Group rollouts: G episodes of one instance start on the same screen, the oracle's replies earn 1 and a
bad policy 0, format penalties and token usage are counted, an endpoint is a policy too."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest

from mobilegym.agentic import group_rollouts
from mobilegym.eval.agents.openai.client import ChatClient, Completion
from tests.test_agentic_chat import image_of, oracle_trace
from tests.test_eval_openai_agent import Out, ScriptedServer, ok

TASK = "clock.CountAlarms"
MAKE = dict(render_scale=0.1, world="canonical")
SEED = 2


def step_of(messages: list[dict[str, Any]]) -> int:
    """The 0-based step a request asks for, read from its last user text ("Step N of at most M.")."""
    return int(re.search(r"^Step (\d+)", messages[-1]["content"][-1]["text"], re.MULTILINE).group(1)) - 1


def oracle_policy() -> Any:
    """An async in-process policy replaying the oracle plan of (TASK, SEED) as json replies, with usage."""
    trace, reward = oracle_trace(SEED, dict(MAKE, task=TASK, coord_space="norm1000"))
    assert reward == 1.0

    async def policy(messages: list[dict[str, Any]]) -> Completion:
        return Completion(json.dumps(trace[step_of(messages)]), usage={"prompt": 100, "completion": 10})

    return policy, len(trace)


@pytest.mark.parametrize("start", ["seed", "fork"])
def test_the_oracle_group_succeeds_from_one_screen(start: str) -> None:
    policy, steps = oracle_policy()
    groups = group_rollouts([TASK], [SEED], group_size=3, policy=policy, start=start, concurrency=2, **MAKE)
    assert len(groups) == 1
    group = groups[0]
    assert (group.task_id, group.seed, len(group.trajectories)) == (TASK, SEED, 3)
    assert group.rewards == [1.0, 1.0, 1.0]
    firsts = [image_of(t.steps[0].messages).tobytes() for t in group.trajectories]
    assert firsts[0] == firsts[1] == firsts[2]  # identical starts
    for member, trajectory in enumerate(group.trajectories):
        assert trajectory.member == member and trajectory.success and trajectory.score == 1.0
        assert trajectory.end == "complete" and trajectory.error is None and len(trajectory.steps) == steps
        assert trajectory.checks and all(check["passed"] for check in trajectory.checks)
        assert [s.reward for s in trajectory.steps] == [0.0] * (steps - 1) + [1.0]
        assert (trajectory.usage.calls, trajectory.usage.prompt, trajectory.usage.completion) == (
            steps, 100 * steps, 10 * steps)
        assert trajectory.steps[0].messages[0]["role"] == "system" and trajectory.steps[-1].action == {
            "type": "complete"}


def test_a_bad_policy_earns_nothing_and_pays_its_format_penalties() -> None:
    def wrong(messages: list[dict[str, Any]]) -> str:  # a sync policy: gives a wrong count at once
        return '{"type": "complete", "text": "99"}'

    def garbage(messages: list[dict[str, Any]]) -> str:
        return "I am not sure what to do."

    groups = group_rollouts(TASK, [SEED, SEED + 1], group_size=2, policy=wrong, **MAKE)
    assert [g.seed for g in groups] == [SEED, SEED + 1]
    assert all(t.reward == 0.0 and not t.success and t.end == "complete" for g in groups for t in g.trajectories)
    [group] = group_rollouts(TASK, SEED, group_size=2, policy=garbage, format_penalty=-0.1, max_steps=3, **MAKE)
    for trajectory in group.trajectories:
        assert trajectory.end == "step_budget" and len(trajectory.steps) == 3
        assert trajectory.reward == pytest.approx(-0.3) and trajectory.score == 0.0
        assert all(s.parse_error == "json: the reply holds no JSON object" and s.action is None
                   for s in trajectory.steps)
        assert "Your previous reply could not be used" in trajectory.steps[1].messages[-1]["content"][-1]["text"]


def model(body: dict[str, Any]) -> Out:
    """A fake model for CountAlarms in text mode: open Clock, then answer 4 (the canonical world's count)."""
    step = step_of(body["messages"])
    action = {"type": "open_app", "app": "Clock"} if step == 0 else {"type": "complete", "text": "4"}
    return ok(json.dumps(action), usage=(700, 12))


def test_an_endpoint_is_a_policy() -> None:
    with ScriptedServer([model] * 4) as server:
        client = ChatClient(server.url, "fake-vl", max_retries=0)
        [group] = group_rollouts(TASK, 0, group_size=2, policy=client, eval_mode="text", **MAKE)
    assert group.rewards == [1.0, 1.0] and len(server.requests) == 4
    assert all((t.usage.calls, t.usage.prompt, t.usage.completion) == (2, 1400, 24) for t in group.trajectories)
    with ScriptedServer([Out(401, {"error": "bad key"})] * 2) as server:
        [group] = group_rollouts(TASK, 0, group_size=2, policy=ChatClient(server.url, "m", max_retries=0), **MAKE)
    assert all(t.error_kind == "model_error" and "HTTP 401" in t.error and not t.success
               for t in group.trajectories)


def test_worker_processes_share_out_the_instances() -> None:
    """Two spawned processes play against the same loopback endpoint; the groups come back in order."""
    with ScriptedServer([model] * 12) as server:
        groups = group_rollouts(TASK, [0, 1, 2], group_size=2, workers=2, eval_mode="text",
                                policy=ChatClient(server.url, "fake-vl", max_retries=0), **MAKE)
    assert [g.seed for g in groups] == [0, 1, 2] and len(server.requests) == 12
    assert all(g.rewards == [1.0, 1.0] for g in groups)
    with pytest.raises(TypeError, match="does not pickle"):
        group_rollouts(TASK, [0, 1], workers=2, policy=lambda messages: "{}")


def test_bad_arguments_are_named() -> None:
    policy = lambda messages: "{}"  # noqa: E731
    for kwargs, message in (({"group_size": 0}, "group_size must be an integer >= 1"),
                            ({"start": "clone"}, "start must be one of seed, fork"),
                            ({"format_penalty": 1}, "format_penalty"),
                            ({"task": TASK}, "not task="),
                            ({"invalid_action": "raise"}, "invalid_action='noop'")):
        with pytest.raises(ValueError, match=message):
            group_rollouts(TASK, 0, policy=policy, **{**MAKE, **kwargs})
    with pytest.raises(ValueError, match="seeds must be non-negative"):
        group_rollouts(TASK, [-1], policy=policy)
    with pytest.raises(TypeError, match="policy must be a ChatClient or a callable"):
        group_rollouts(TASK, 0, policy="gpt-4o")
