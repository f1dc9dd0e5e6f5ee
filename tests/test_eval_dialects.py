"""What real models write beside each family's format, read as they mean it; and replies that cannot be read
end an episode instead of looping.

Each case is a reply a model of that family has been seen to give: the json adapter's ``"action"`` key and
``scroll``; Qwen's ``key`` with Android key names; MAI-UI-style ``swipe`` by direction, ``drag`` from
``start_coordinate`` and ``terminate`` with status ``fail``; AutoGLM's ``Note``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mobilegym.eval.agents.openai import OpenAIAgent, ParseError, make_adapter
from mobilegym.eval.agents.openai.adapters import Reply
from mobilegym.eval.agents.openai.client import Completion
from mobilegym.eval.agents.openai.images import Frame
from mobilegym.eval.harness import evaluate
from tests.fake_model import FakeModel

DEVICE = (1080, 2400)
JSON = Frame(DEVICE, (576, 1280), "relative_1000")
QWEN3 = Frame(DEVICE, (1088, 2400), "relative_1000")
QWEN25 = Frame(DEVICE, (1092, 2408), "image")


def _call(arguments: dict[str, Any]) -> str:
    return "<tool_call>\n" + json.dumps({"name": "mobile_use", "arguments": arguments}) + "\n</tool_call>"


@pytest.mark.parametrize(("reply", "action"), [
    ('{"action": "tap", "x": 500, "y": 500}', {"type": "tap", "x": 540, "y": 1200}),
    ('{"action_type": "click", "coordinate": [250, 750]}', {"type": "tap", "x": 270, "y": 1800}),
    ('{"thought": "t", "action": {"type": "long_press", "x": 500, "y": 500}}',
     {"type": "long_press", "x": 540, "y": 1200, "duration_ms": 800}),
    ('{"type": "scroll", "direction": "down"}', {"type": "swipe", "x": 540, "y": 1200, "x2": 540, "y2": 0,
                                                 "duration_ms": 300}),
    ('{"type": "scroll", "direction": "up", "x": 500, "y": 250}',
     {"type": "swipe", "x": 540, "y": 600, "x2": 540, "y2": 1800, "duration_ms": 300}),
    ('{"type": "swipe", "direction": "left"}', {"type": "swipe", "x": 540, "y": 1200, "x2": 0, "y2": 1200,
                                                "duration_ms": 300}),
    ('{"action": "input_text", "text": "hi"}', {"type": "type", "text": "hi", "clear": False}),
    ('{"action": "open", "app_name": "Clock"}', {"type": "open_app", "app": "Clock"}),
    ('{"action": "navigate_back"}', {"type": "key", "key": "back"}),
    ('{"action": "terminate", "status": "fail"}', {"type": "abort"}),
    ('{"type": "key", "key": "KEYCODE_ENTER"}', {"type": "key", "key": "enter"}),
])
def test_json_dialects(reply: str, action: dict[str, Any]) -> None:
    assert make_adapter("json").parse(Reply(reply), JSON).action == action


@pytest.mark.parametrize(("frame", "arguments", "action"), [
    (QWEN3, {"action": "swipe", "direction": "up"}, {"type": "swipe", "x": 540, "y": 1200, "x2": 540, "y2": 0}),
    (QWEN3, {"action": "swipe", "direction": "down", "coordinate": [500, 250]},
     {"type": "swipe", "x": 540, "y": 600, "x2": 540, "y2": 1800}),
    (QWEN3, {"action": "drag", "start_coordinate": [100, 100], "end_coordinate": [900, 100]},
     {"type": "drag", "x": 108, "y": 240, "x2": 972, "y2": 240}),
    (QWEN25, {"action": "swipe", "start_coordinate": [546, 1800], "end_coordinate": [546, 600]},
     {"type": "swipe", "x": 540, "y": 1794, "x2": 540, "y2": 598}),
    (QWEN3, {"action": "terminate", "status": "fail"}, {"type": "abort"}),
    (QWEN3, {"action": "terminate", "status": "success"}, {"type": "complete"}),
    (QWEN3, {"action": "key", "text": "KEYCODE_BACK"}, {"type": "key", "key": "back"}),
])
def test_qwen_and_mai_ui_style_calls(frame: Frame, arguments: dict[str, Any], action: dict[str, Any]) -> None:
    variant = "qwen3" if frame is QWEN3 else "qwen2.5"
    parsed = make_adapter("qwen", variant=variant).parse(Reply(_call(arguments)), frame).action
    assert {k: v for k, v in parsed.items() if k not in ("duration_ms", "text")} == action


def test_a_volume_key_is_a_step_that_changes_nothing_and_the_model_is_told() -> None:
    agent = OpenAIAgent("http://127.0.0.1:9/v1", "m", "qwen", adapter_options={"variant": "qwen3"})
    agent.reset("Turn the volume up.", {"screen_size": DEVICE})
    obs = {"screenshot": np.zeros((2400, 1080, 3), np.uint8), "a11y": "<hierarchy/>"}
    decision = agent.conclude(agent.prepare(obs, {}), Completion(_call({"action": "key", "text": "volume_up"})))
    assert decision.action == {"type": "wait", "seconds": 0.0} and decision.error is None
    following = agent.prepare(obs, {})
    assert "The volume_up key does nothing on this phone" in following.prompt[-1]["content"][-1]["text"]
    with pytest.raises(ParseError, match="unknown key 'warp'"):
        agent.adapter.parse(Reply(_call({"action": "key", "text": "warp"})), QWEN3)


@pytest.mark.parametrize(("reply", "action"), [
    ('<think>Remember the price.</think><answer>do(action="Note", message="Price: 12 yuan")</answer>',
     {"type": "wait", "seconds": 0.0}),
    ('do(action="Call_API", instruction="Sum up the reviews")', {"type": "wait", "seconds": 0.0}),
    ('do(action="Interact")', {"type": "abort"}),
])
def test_autoglm_note_and_friends(reply: str, action: dict[str, Any]) -> None:
    assert make_adapter("autoglm").parse(Reply(reply), JSON).action == action


# in whole episodes --------------------------------------------------------------------------------
def _run(tmp_path: Path, replies: list[str], adapter: str = "json", **options: Any):
    answers = iter(replies)
    with FakeModel(lambda body: next(answers, replies[-1]), models=["vl"]) as server:
        run = evaluate(agent="openai", tasks=["clock.CountAlarms"], out=str(tmp_path / "run"), report=False,
                       trajectories=False, agent_options={"base_url": server.url, "model": "vl", "adapter": adapter,
                                                          "max_retries": 0}, **options)
    return run.rows[0], server


def test_terminate_fail_ends_the_episode_as_an_abort(tmp_path: Path) -> None:
    row, server = _run(tmp_path, [_call({"action": "terminate", "status": "fail"})], adapter="qwen")
    assert row["end"] == "abort" and row["steps"] == 1 and not row["success"] and row["error_kind"] is None
    assert len(server.requests) == 2  # the check and one model call


def test_replies_that_cannot_be_read_end_the_episode_and_never_loop(tmp_path: Path) -> None:
    row, server = _run(tmp_path, ["I am not sure what to do."], loop_limit=0)
    assert row["end"] == "unreadable" and row["model_calls"] == 3 and row["steps"] == 2
    assert not row["success"] and row["error_kind"] is None and not row["loop"]
    # one readable reply between unreadable ones starts the count again
    row, _ = _run(tmp_path / "again", ["?", "?", '{"type": "wait", "seconds": 0}', "?", "?", "?"], loop_limit=0)
    assert row["end"] == "unreadable" and row["model_calls"] == 6


# the new families' options -----------------------------------------------------------------------------
def test_the_tools_adapter_sends_its_functions_and_reads_native_calls(tmp_path: Path) -> None:
    tool_call = {"id": "c1", "type": "function", "function": {"name": "complete", "arguments": "{}"}}
    message = {"role": "assistant", "content": None, "tool_calls": [tool_call]}
    body = {"id": "c", "object": "chat.completion", "model": "vl",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}]}
    with FakeModel(lambda request: (200, body), models=["vl"]) as server:
        run = evaluate(agent="openai", tasks=["clock.CountAlarms"], out=str(tmp_path / "run"), report=False,
                       trajectories=False, agent_options={"base_url": server.url, "model": "vl", "adapter": "tools"})
    request = server.requests[1][2]
    names = [t["function"]["name"] for t in request["tools"]]
    assert names[:3] == ["tap", "double_tap", "long_press"] and "abort" in names and request["tool_choice"] == "auto"
    assert run.rows[0]["end"] == "complete" and run.rows[0]["steps"] == 1
    meta = json.loads((tmp_path / "run" / "meta.json").read_text())
    assert meta["agent"]["tools"] == names and meta["agent"]["extra_body"] == {}


@pytest.mark.parametrize(("adapter", "reply"), [
    ("maiui", _call({"action": "ask_user", "text": "Which alarm?"})),
    ("gelab", "explain:ask\taction:INFO\tvalue:Which alarm?\tsummary:s"),
])
def test_a_question_for_the_user_ends_the_episode_unless_a_reply_is_configured(adapter: str, reply: str) -> None:
    frame = Frame(DEVICE, DEVICE, "relative_999" if adapter == "maiui" else "relative_1000")
    assert make_adapter(adapter).parse(Reply(reply), frame).action == {"type": "abort", "text": "Which alarm?"}
    agent = OpenAIAgent("http://127.0.0.1:9/v1", "m", adapter, adapter_options={"user_reply": "the 7:30 one"})
    agent.reset("Delete the alarm.", {"screen_size": DEVICE})
    obs = {"screenshot": np.zeros((2400, 1080, 3), np.uint8), "a11y": "<hierarchy/>"}
    decision = agent.conclude(agent.prepare(obs, {}), Completion(reply))
    assert decision.action == {"type": "wait", "seconds": 0.0}
    assert "The user answers: the 7:30 one" in agent.prepare(obs, {}).prompt[-1]["content"][-1]["text"]
    with pytest.raises(ValueError, match="user_reply must be a non-empty string"):
        make_adapter(adapter, user_reply="")
