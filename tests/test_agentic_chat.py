"""ChatEnv: the messages it sends (those of the eval's OpenAI agent), reply parsing, the format-error
path, rewards equal to the raw env's for the same actions, forks, and bad input."""
from __future__ import annotations

import base64
import io
import json
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

import mobilegym  # noqa: F401  (registers MobileGym-v0)
from mobilegym.agentic import ChatEnv
from mobilegym.eval.agents.openai import OpenAIAgent
from mobilegym.eval.agents.openai.client import Completion, ToolCall
from mobilegym.actions import CoordinateSpace
from mobilegym.eval.harness.episode import agent_info, in_coords
from mobilegym.oracle import plans_for, run_plan

TASK = "clock.CountAlarms"
RL = dict(task=TASK, render_scale=0.1, world="canonical")


def oracle_trace(seed: int, make: dict[str, Any]) -> tuple[list[dict[str, Any]], float]:
    """The actions of the task's oracle plan on a raw env built with ``make`` (its coordinates in the
    env's coord_space) and the reward it earned there."""
    task = make["task"]
    env = gym.make("MobileGym-v0", disable_env_checker=True, **make)
    try:
        oracle = next(p for p in plans_for(task) if p.expect_success)
        reward, _, driver = run_plan(env, task, oracle, seed)
        return list(driver.trace), reward
    finally:
        env.close()


def image_of(messages: list[dict[str, Any]]) -> Image.Image:
    """The current screenshot of a request (its last image part), decoded from its data URI."""
    parts = [p for m in messages if isinstance(m["content"], list) for p in m["content"] if p["type"] == "image_url"]
    url = parts[-1]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))


def last_text(messages: list[dict[str, Any]]) -> str:
    return messages[-1]["content"][-1]["text"]


# the messages --------------------------------------------------------------------------------------------
def test_reset_gives_system_prompt_screenshot_and_instruction() -> None:
    env = ChatEnv(**RL, eval_mode="text")
    messages, info = env.reset(seed=0)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "You operate an Android phone" in messages[0]["content"]
    assert "1000 the right or bottom edge" in messages[0]["content"]  # norm1000, the default coord_space
    image_part, text_part = messages[1]["content"]
    assert image_part["type"] == "image_url" and text_part["type"] == "text"
    assert image_of(messages).size == (108, 240)  # the RL-resolution screenshot, as captured
    assert text_part["text"].startswith(f"Task: {env.unwrapped.instruction}\nStep 1 of at most {info['max_steps']}.")
    assert info["task_id"] == TASK and info["step"] == 0
    env.close()


@pytest.mark.parametrize(("adapter", "options", "chat"), [
    ("json", {}, {}), ("json", {}, {"send_tree": True, "set_of_mark": True, "history_images": 1}),
    ("qwen", {"variant": "qwen3"}, {"send_tree": True})])
def test_the_messages_are_the_eval_agents(adapter: str, options: dict[str, Any], chat: dict[str, Any]) -> None:
    """Step by step, ChatEnv sends exactly what mobilegym eval's OpenAI agent sends for the same screens."""
    env = ChatEnv(**RL, adapter=adapter, adapter_options=options or None, history=2, **chat)
    if adapter == "json":
        options = {"coordinates": "norm1000"}
    agent = OpenAIAgent("http://127.0.0.1:9/v1", "m", adapter, adapter_options=options, history=2, **chat)
    messages, info = env.reset(seed=1)
    agent.reset(env.unwrapped.instruction, {**info, **agent_info(env.env)})
    replies = ['{"type": "open_app", "app": "Clock"}', "no action here",
               '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "system_button", "button": "Back"}}'
               '\n</tool_call>']
    obs = env.unwrapped.observe()
    for reply in replies:
        step = agent.prepare(obs, info)
        assert messages == step.request
        agent.conclude(step, Completion(reply))
        messages, _, _, _, info = env.step(reply)
        obs = env.unwrapped.observe()
    env.close()


def test_json_replies_are_env_actions_in_its_coord_space() -> None:
    pixels = ChatEnv(**RL, coord_space="pixels")
    messages, _ = pixels.reset(seed=0)
    assert "pixels of the phone's 1080x2400 screen" in messages[0]["content"]
    _, _, _, _, info = pixels.step('{"type": "swipe", "x": 540, "y": 1800, "x2": 540, "y2": 600}')
    assert info["action"] == {"type": "swipe", "x": 540, "y": 1800, "x2": 540, "y2": 600, "duration_ms": 300}
    norm = ChatEnv(**RL, coord_space="norm1")
    messages, _ = norm.reset(seed=0)
    assert '"x": 0.5, "y": 0.08' in messages[0]["content"]
    _, _, _, _, info = norm.step('{"thought": "the middle", "type": "tap", "x": 0.5, "y": 0.5}')
    assert info["action"] == {"type": "tap", "x": 540, "y": 1200} and info["thought"] == "the middle"
    assert info["parse_error"] is None
    for env in (pixels, norm):
        env.close()


def test_qwen_replies_are_read_as_tool_calls() -> None:
    env = ChatEnv(**RL, adapter="qwen")
    messages, _ = env.reset(seed=0)
    assert "<tools>" in messages[0]["content"] and image_of(messages).size == (112, 252)  # smart resize, factor 28
    reply = ('The clock is on the home screen.\n<tool_call>\n{"name": "mobile_use", "arguments": '
             '{"action": "open", "text": "Clock"}}\n</tool_call>')
    messages, reward, terminated, _, info = env.step(reply)
    assert info["action"] == {"type": "open_app", "app": "Clock"} and info["app"] == "clock"
    assert info["thought"] == "The clock is on the home screen." and not terminated and reward == 0.0
    assert messages[2] == {"role": "assistant", "content": reply}  # the history replays the reply
    call = ToolCall("mobile_use", {"action": "system_button", "button": "Home"})
    _, _, _, _, info = env.step(Completion("", (call,)))  # a server's native tool call
    assert info["action"] == {"type": "key", "key": "home"}
    env.close()


# format errors -----------------------------------------------------------------------------------------
def test_a_bad_reply_is_told_back_counted_and_penalised() -> None:
    env = ChatEnv(**RL, format_penalty=-0.25)
    env.reset(seed=0)
    messages, reward, terminated, truncated, info = env.step("I would tap the clock.")
    assert reward == -0.25 and not terminated and not truncated
    assert info["step"] == 1 and info["action"] is None
    assert info["parse_error"] == "json: the reply holds no JSON object"
    assert ("Your previous reply could not be used: json: the reply holds no JSON object. "
            "Answer in the format described above.") in last_text(messages)
    assert "The phone rejected" not in last_text(messages)  # the one note is the format error
    _, reward, _, _, info = env.step('{"type": "tap", "x": 2000, "y": 10}')  # off the 0-1000 range
    assert reward == -0.25 and "x=2000 is outside 0..1000" in info["parse_error"]
    _, reward, _, _, info = env.step('{"type": "open_app", "app": "Clock"}')
    assert reward == 0.0 and info["parse_error"] is None and info["app"] == "clock"
    env.close()


def test_repeated_bad_replies_run_out_the_budget() -> None:
    env = ChatEnv(**RL, max_steps=3, format_penalty=-0.1)
    env.reset(seed=0)
    rewards = []
    for _ in range(3):
        messages, reward, terminated, truncated, info = env.step("?")
        rewards.append(reward)
    assert rewards == [-0.1, -0.1, -0.1] and truncated and not terminated
    assert info["judge"]["success"] is False and info["judge"]["score"] == 0.0
    assert [m["role"] for m in messages][-2:] == ["user", "assistant"] and messages[-1]["content"] == "?"
    with pytest.raises(RuntimeError, match="call reset"):
        env.step("?")
    env.close()


def test_an_action_the_phone_rejects_is_told_back_without_penalty() -> None:
    env = ChatEnv(**RL, format_penalty=-0.5)
    env.reset(seed=0)
    messages, reward, _, _, info = env.step('{"type": "open_app", "app": "Teleporter"}')
    assert reward == 0.0 and info["parse_error"] is None and "open_app" in info["last_action_error"]
    assert "The phone rejected your previous action: open_app" in last_text(messages)
    env.close()


# the same rewards as the raw env ------------------------------------------------------------------------------
@pytest.mark.parametrize("coord_space", ["pixels", "norm1000"])
def test_rewards_equal_the_raw_envs_for_the_same_actions(coord_space: str) -> None:
    """The oracle's actions as json replies earn what they earn on the raw env, screen for screen; and
    info["action"] (device pixels) replayed on a raw pixels env gives the same phone again."""
    make = dict(RL, coord_space=coord_space)
    trace, oracle_reward = oracle_trace(3, make)
    assert oracle_reward == 1.0 and any("x" in action for action in trace)
    raw = gym.make("MobileGym-v0", disable_env_checker=True, invalid_action="noop", **make)
    replay = gym.make("MobileGym-v0", disable_env_checker=True, invalid_action="noop", **dict(make, coord_space="pixels"))
    chat = ChatEnv(**make)
    for env in (raw, replay, chat):
        env.reset(seed=3, options={"task": TASK})
    for action in trace:
        obs, raw_reward, raw_term, raw_trunc, raw_info = raw.step(action)
        _, reward, terminated, truncated, info = chat.step(json.dumps(action))
        again, replay_reward, *_ = replay.step(info["action"])
        assert (reward, terminated, truncated) == (raw_reward, raw_term, raw_trunc) and replay_reward == reward
        shot = chat.unwrapped.observe()["screenshot"]
        assert np.array_equal(shot, obs["screenshot"]) and np.array_equal(shot, again["screenshot"])
    assert reward == 1.0 and info["judge"]["checks"] == raw_info["judge"]["checks"]
    for env in (raw, replay, chat):
        env.close()


@pytest.mark.parametrize("space", ["pixels", "norm1000", "norm1"])
@pytest.mark.parametrize("size", [(1080, 2400), (108, 240), (1440, 3120)])
def test_device_pixels_written_in_a_coordinate_space_come_back_exactly(space: str, size: tuple[int, int]) -> None:
    coords = CoordinateSpace(space, size)
    for px in range(size[1]):
        point = in_coords({"type": "tap", "x": px % size[0], "y": px}, coords)
        assert (coords.to_device(point["x"], "x"), coords.to_device(point["y"], "y")) == (px % size[0], px)


# forks ----------------------------------------------------------------------------------------------------
def test_forks_continue_the_chat_independently() -> None:
    env = ChatEnv(**RL, history=2)
    env.reset(seed=0)
    messages, *_ = env.step('{"type": "open_app", "app": "Clock"}')
    first, second = env.fork(2)
    moved, *_ = first.step('{"type": "key", "key": "home"}')
    again, *_ = second.step('{"type": "key", "key": "home"}')
    assert moved == again and first.unwrapped.steps == 2 and env.unwrapped.steps == 1
    assert env.unwrapped.device.current_app() == "clock" and first.unwrapped.device.current_app() != "clock"
    after, *_ = env.step('{"type": "wait", "seconds": 1}')
    assert [m["role"] for m in after] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert after[4]["content"] == '{"type": "wait", "seconds": 1}' and moved[4]["content"] != after[4]["content"]
    env.close()


# bad input ------------------------------------------------------------------------------------------------
def test_bad_options_and_input_are_named() -> None:
    with pytest.raises(ValueError, match="format_penalty .* <= 0"):
        ChatEnv(**RL, format_penalty=0.5)
    with pytest.raises(ValueError, match="invalid_action='noop'"):
        ChatEnv(**RL, invalid_action="raise")
    with pytest.raises(ValueError, match="obs_parts with screenshot"):
        ChatEnv(**RL, obs_parts=("a11y", "instruction"))
    with pytest.raises(ValueError, match="obs_parts with a11y"):
        ChatEnv(**RL, obs_parts=("screenshot", "instruction"), send_tree=True)
    with pytest.raises(ValueError, match="json coordinates must be one of"):
        ChatEnv(**RL, adapter_options={"coordinates": "inches"})
    with pytest.raises(ValueError, match="not both"):
        ChatEnv(task=TASK, env=gym.make("MobileGym-v0", task=TASK, invalid_action="noop"))
    with pytest.raises(ValueError, match="invalid_action='noop'"):
        ChatEnv(env=gym.make("MobileGym-v0", task=TASK))
    env = ChatEnv(**RL)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step("{}")
    with pytest.raises(RuntimeError, match="fork"):
        env.fork(2)
    env.reset(seed=0)
    with pytest.raises(TypeError, match="a reply must be the model's text"):
        env.step({"type": "tap"})
    env.close()
