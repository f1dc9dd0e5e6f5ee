"""The OpenAI-compatible agent against a real local HTTP server speaking ``/v1/chat/completions``.

The server (``http.server`` in a thread) replays scripted answers and records every request: the
tests check what is sent (model, sampling, the screenshot as a PNG data URL of the size the family
expects, the key from the environment), retries and timeouts, usage, the concurrency limit, and
full episodes on the simulated phone played to success by scripted replies.
"""
from __future__ import annotations

import asyncio
import base64
import io
import json
import re
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Callable

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

import mobilegym  # noqa: F401  (registers MobileGym-v0)
from mobilegym.eval.agents.base import Decision, ModelError
from mobilegym.eval.agents.openai import OpenAIAgent
from mobilegym.screen_text import parse_nodes
from tests.fake_model import LoopbackServer

KEY_ENV = "MOBILEGYM_TEST_MODEL_KEY"
DEVICE = (1080, 2400)


@dataclass
class Out:
    """One scripted answer: status, JSON (or raw text) body, headers, and a delay before sending."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def ok(text: str | None, usage: tuple[int, int] = (1200, 30), tool_calls: list[dict] | None = None) -> Out:
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if tool_calls is not None:
        message["tool_calls"] = [{"id": f"call_{i}", "type": "function",
                                  "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                                 for i, c in enumerate(tool_calls)]
    return Out(body={"id": "cmpl-1", "object": "chat.completion", "model": "scripted",
                     "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                     "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                               "total_tokens": usage[0] + usage[1]}})


Entry = Out | Callable[[dict[str, Any]], Out]


class ScriptedServer(LoopbackServer):
    """An OpenAI-compatible endpoint answering from a script, one entry per request, in order."""

    def __init__(self, script: list[Entry]) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.in_flight = self.max_in_flight = 0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server._lock:
                    headers = {k.lower(): v for k, v in self.headers.items()}
                    server.requests.append({"path": self.path, "headers": headers, "body": body})
                    entry = server.script.pop(0) if server.script else Out(410, {"error": "script exhausted"})
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    out = entry(body) if callable(entry) else entry
                    server.stop.wait(out.delay)
                    payload = out.body if isinstance(out.body, str) else json.dumps(out.body)
                    self.send_response(out.status)
                    self.send_header("Content-Type", "application/json")
                    for key, value in out.headers.items():
                        self.send_header(key, value)
                    self.send_header("Content-Length", str(len(payload.encode())))
                    self.end_headers()
                    self.wfile.write(payload.encode())
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)
                finally:
                    with server._lock:
                        server.in_flight -= 1

        super().__init__(Handler)


class Sleeps:
    """A recording stand-in for asyncio.sleep between retries."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture(autouse=True)
def _no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)


def _obs(width: int = 540, height: int = 1200) -> dict[str, Any]:
    return {"screenshot": np.full((height, width, 3), 200, np.uint8), "a11y": "<hierarchy/>",
            "instruction": "Count the alarms."}


def _agent(url: str, adapter: str = "json", **options: Any) -> OpenAIAgent:
    agent = OpenAIAgent(url, "scripted-vl", adapter, api_key_env=KEY_ENV, **options)
    agent.reset("Count the alarms.", {"screen_size": DEVICE, "eval_mode": "text", "max_steps": 10, "apps": ["Clock"]})
    return agent


def _image_size(request: dict[str, Any]) -> tuple[int, int]:
    parts = [p for m in request["body"]["messages"] if isinstance(m["content"], list) for p in m["content"]
             if p["type"] == "image_url"]
    url = parts[-1]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size


TAP = '{"type": "tap", "x": 500, "y": 500}'


# what is sent ------------------------------------------------------------------------------------
def test_the_request_carries_model_sampling_image_and_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-test-123")
    with ScriptedServer([ok("Tap the middle.\n" + TAP, usage=(1500, 42))]) as server:
        agent = _agent(server.url, "qwen", adapter_options={"variant": "qwen2.5"}, temperature=0.2, top_p=0.9,
                       max_tokens=256, seed=7, extra_body={"top_k": 1})
        decision = agent.act(_obs(), {})
    request = server.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["authorization"] == "Bearer sk-test-123"
    body = request["body"]
    assert (body["model"], body["temperature"], body["top_p"], body["max_tokens"], body["seed"], body["top_k"]) == (
        "scripted-vl", 0.2, 0.9, 256, 7, 1)
    assert _image_size(request) == (532, 1204)  # Qwen2.5-VL smart resize of the 540x1200 screenshot
    assert isinstance(decision, Decision)
    assert decision.action is None and "no <tool_call> block" in decision.error  # a JSON reply to a qwen prompt
    assert decision.usage == {"prompt": 1500, "completion": 42} and decision.retries == 0
    assert decision.latency_s > 0 and decision.response == "Tap the middle.\n" + TAP
    recorded = json.dumps(decision.prompt)
    assert "<image 000.png>" in recorded and "base64" not in recorded
    meta = agent.meta()
    assert "sk-test-123" not in json.dumps(meta) and meta["api_key_env"] == KEY_ENV
    assert (meta["name"], meta["adapter"], meta["variant"], meta["coordinates"], meta["prompt_version"]) == (
        "openai", "qwen", "qwen2.5", "image", agent.prompt_version)
    assert meta["resize"] == {"mode": "smart", "factor": 28, "min_pixels": 3136, "max_pixels": 12845056}


def test_without_a_key_no_authorization_header_is_sent() -> None:
    with ScriptedServer([ok(TAP)]) as server:
        decision = _agent(server.url).act(_obs(), {})
    assert "authorization" not in server.requests[0]["headers"]
    assert decision.action == {"type": "tap", "x": 540, "y": 1200}


@pytest.mark.parametrize(("adapter", "options", "size"), [
    ("json", {}, (576, 1280)), ("json", {"max_side": None}, (1080, 2400)),
    ("qwen", {"variant": "qwen2.5"}, (1092, 2408)), ("qwen", {"variant": "qwen3"}, (1088, 2400)),
    ("uitars", {}, (1092, 2408)), ("uitars", {"version": "1"}, (1092, 2408)), ("autoglm", {}, (1080, 2400))])
def test_each_family_gets_its_image_size(adapter: str, options: dict[str, Any], size: tuple[int, int]) -> None:
    with ScriptedServer([ok("x")]) as server:
        _agent(server.url, adapter, adapter_options=options).act(_obs(1080, 2400), {})
    assert _image_size(server.requests[0]) == size


def test_history_replays_replies_and_recent_screenshots() -> None:
    with ScriptedServer([ok(TAP), ok(TAP), ok(TAP)]) as server:
        agent = _agent(server.url, history=2, history_images=1)
        for _ in range(3):
            agent.act(_obs(), {})
    messages = server.requests[2]["body"]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert messages[2]["content"] == TAP and messages[1]["content"][0]["text"].startswith("Step 1.")
    images = [p for m in messages if isinstance(m["content"], list) for p in m["content"] if p["type"] == "image_url"]
    assert len(images) == 2  # step 2's screenshot (the most recent earlier one) and the current one


# retries, timeouts, errors ---------------------------------------------------------------------------
def test_500_then_200_is_one_recorded_retry(sleeps: Sleeps) -> None:
    with ScriptedServer([Out(500, {"error": "overloaded"}), ok(TAP)]) as server:
        decision = _agent(server.url, sleep=sleeps, backoff_s=0.5).act(_obs(), {})
    assert len(server.requests) == 2 and decision.retries == 1 and sleeps.calls == [0.5]
    assert decision.action == {"type": "tap", "x": 540, "y": 1200}


def test_429_waits_for_retry_after_and_the_backoff_doubles(sleeps: Sleeps) -> None:
    script = [Out(429, {"error": "rate"}, {"Retry-After": "3"}), Out(503, "busy"), Out(502, "bad gateway"), ok(TAP)]
    with ScriptedServer(script) as server:
        agent = _agent(server.url, sleep=sleeps, backoff_s=0.25, backoff_max_s=10.0, max_retries=3)
        decision = agent.act(_obs(), {})
    assert sleeps.calls == [3.0, 0.5, 1.0] and decision.retries == 3 and agent.totals["retries"] == 3


def test_timeouts_end_in_model_error_after_the_retries(sleeps: Sleeps) -> None:
    with ScriptedServer([Out(delay=3.0, body={}) for _ in range(3)]) as server:
        agent = _agent(server.url, sleep=sleeps, timeout_s=0.2, max_retries=2, backoff_s=1.0)
        with pytest.raises(ModelError, match=r"no answer within timeout_s=0.2 \(gave up after 3 attempt\(s\)\)"):
            agent.act(_obs(), {})
    assert len(server.requests) == 3 and sleeps.calls == [1.0, 2.0]


def test_a_slow_answer_within_the_timeout_is_fine(sleeps: Sleeps) -> None:
    with ScriptedServer([Out(**{**ok(TAP).__dict__, "delay": 0.3})]) as server:
        decision = _agent(server.url, sleep=sleeps, timeout_s=5.0).act(_obs(), {})
    assert decision.action is not None and decision.latency_s >= 0.3 and sleeps.calls == []


def test_a_client_error_is_not_retried(sleeps: Sleeps) -> None:
    with ScriptedServer([Out(401, {"error": {"message": "invalid api key"}})]) as server:
        with pytest.raises(ModelError, match="HTTP 401 \\(not retried\\): .*invalid api key"):
            _agent(server.url, sleep=sleeps).act(_obs(), {})
    assert len(server.requests) == 1 and sleeps.calls == []


@pytest.mark.parametrize(("out", "message"), [
    (Out(200, "<html>gateway</html>"), "the answer is not JSON"),
    (Out(200, {"object": "chat.completion", "choices": []}), "not a chat completion \\(no choices\\)"),
    (Out(200, {"error": {"message": "context length exceeded"}}), "the server reported an error"),
])
def test_an_answer_that_is_no_completion_is_a_model_error(out: Out, message: str, sleeps: Sleeps) -> None:
    with ScriptedServer([out]) as server:
        with pytest.raises(ModelError, match=message):
            _agent(server.url, sleep=sleeps).act(_obs(), {})


def test_a_refused_connection_is_retried_then_a_model_error(sleeps: Sleeps) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    agent = _agent(f"http://127.0.0.1:{port}/v1", sleep=sleeps, max_retries=2, backoff_s=0.1)
    with pytest.raises(ModelError, match="connection failed .*gave up after 3 attempt"):
        agent.act(_obs(), {})
    assert sleeps.calls == [0.1, 0.2]


def test_bad_options_are_named() -> None:
    for kwargs, message in (({"base_url": "localhost:8000"}, "base_url must be an http"),
                            ({"model": ""}, "model must be a non-empty string"),
                            ({"max_retries": -1}, "max_retries must be an integer >= 0"),
                            ({"temperature": 3}, "temperature must be a number in"),
                            ({"max_concurrency": 0}, "max_concurrency must be an integer >= 1"),
                            ({"history": 1, "history_images": 2}, "history_images \\(2\\) cannot exceed history")):
        args = {"base_url": "http://127.0.0.1:1/v1", "model": "m", **kwargs}
        with pytest.raises(ValueError, match=message):
            OpenAIAgent(args.pop("base_url"), args.pop("model"), **args)
    agent = OpenAIAgent("http://127.0.0.1:1/v1", "m")
    with pytest.raises(RuntimeError, match="call reset"):
        agent.act(_obs(), {})
    agent.reset("x", {"screen_size": DEVICE})
    with pytest.raises(ValueError, match="the screenshot must be an HxWx3 uint8 array"):
        agent.act({"screenshot": np.zeros((4, 4), np.uint8)}, {})
    with pytest.raises(ValueError, match="screen_size"):
        agent.reset("x", {"screen_size": (1080,)})


# parsing failures, usage, native tool calls --------------------------------------------------------------
def test_a_malformed_action_is_a_step_without_action_and_usage_is_summed() -> None:
    with ScriptedServer([ok("I would tap the clock.", usage=(1000, 12)), ok(TAP, usage=(1100, 9))]) as server:
        agent = _agent(server.url)
        first = agent.act(_obs(), {})
        second = agent.act(_obs(), {"last_action_error": "unknown action type None"})
    assert first.action is None and first.error == "json: the reply holds no JSON object"
    assert second.action == {"type": "tap", "x": 540, "y": 1200} and second.error is None
    told = server.requests[1]["body"]["messages"][-1]["content"][-1]["text"]
    assert "Your previous reply could not be used: json: the reply holds no JSON object" in told
    assert agent.totals == {"calls": 2, "retries": 0, "prompt": 2100, "completion": 21}


def test_native_tool_calls_are_read_and_recorded() -> None:
    call = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [266, 602]}}
    with ScriptedServer([ok(None, tool_calls=[call])]) as server:
        decision = _agent(server.url, "qwen").act(_obs(), {})
    assert decision.action == {"type": "tap", "x": 540, "y": 1200}
    assert decision.response == "<tool_call>\n" + json.dumps(call) + "\n</tool_call>"


# concurrency ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("limit", [1, 2])
def test_agents_of_a_loop_share_the_concurrency_limit(limit: int) -> None:
    slow = Out(**{**ok(TAP).__dict__, "delay": 0.25})
    with ScriptedServer([slow] * 4) as server:
        agents = [_agent(server.url, max_concurrency=limit) for _ in range(4)]

        async def play() -> list[Decision]:
            return await asyncio.gather(*(agent.aact(_obs(), {}) for agent in agents))

        decisions = asyncio.run(play())
    assert all(d.action is not None for d in decisions)
    assert server.max_in_flight == limit


# full episodes -------------------------------------------------------------------------------------------
def _reset_info(env: gym.Env, info: dict[str, Any]) -> dict[str, Any]:
    phone = env.unwrapped
    return {**info, "screen_size": phone.device.screen_size, "eval_mode": phone.eval_mode,
            "apps": [a for a in phone.device.apps], "max_steps": info["max_steps"]}


def _centre(xml: str, rid: str, text: str | None = None) -> tuple[int, int]:
    return next(n.center for n in parse_nodes(xml) if n.short_id == rid and (text is None or text in (n.text, n.desc)))


def _play(env: gym.Env, agent: OpenAIAgent) -> tuple[float, dict, list[Decision]]:
    """One episode, each step through the agent's synchronous act()."""
    obs, info = env.reset(seed=0)
    agent.reset(obs["instruction"], _reset_info(env, info))
    decisions = []
    while True:
        decision = agent.act(obs, info)
        decisions.append(decision)
        obs, reward, terminated, truncated, info = env.step(decision.action)
        if terminated or truncated:
            return reward, info, decisions


def test_a_grounded_episode_with_qwen_coordinates_succeeds() -> None:
    """Qwen2.5-VL pixels on the smart-resized half-scale screenshot land on the device's targets."""
    make = dict(task="clock.CountAlarms", world="canonical", render_scale=0.5)
    probe = gym.make("MobileGym-v0", **make)
    obs, _ = probe.reset(seed=0)
    clock = _centre(obs["a11y"], "app_icon", "Clock")
    obs, *_ = probe.step({"type": "open_app", "app": "AnswerSheet"})
    field_, submit = _centre(obs["a11y"], "field_0_input"), _centre(obs["a11y"], "submit")
    probe.close()

    def click(x: int, y: int, why: str) -> Out:  # device pixels -> pixels of the 532x1204 image the model sees
        point = [round(x * 532 / 1080), round(y * 1204 / 2400)]
        return ok(f"{why}\n<tool_call>\n" + json.dumps({"name": "mobile_use", "arguments": {
            "action": "click", "coordinate": point}}) + "\n</tool_call>")

    def call(why: str, **arguments: Any) -> Out:
        return ok(f"{why}\n<tool_call>\n" + json.dumps({"name": "mobile_use", "arguments": arguments})
                  + "\n</tool_call>")

    script = [click(*clock, "Open Clock to see the alarms."), call("Four alarms. Open the sheet.", action="open",
              text="AnswerSheet"), click(*field_, "Focus the number field."), call("Enter 4.", action="type", text="4"),
              click(*submit, "Submit."), call("Submitted.", action="terminate", status="success")]
    env = gym.make("MobileGym-v0", **make)
    with ScriptedServer(script) as server:
        agent = OpenAIAgent(server.url, "Qwen2.5-VL-7B-Instruct", "qwen", history=2)
        reward, info, decisions = _play(env, agent)
    env.close()
    assert [d.action["type"] for d in decisions] == ["tap", "open_app", "tap", "type", "tap", "complete"]
    assert all(abs(a - b) <= 2 for a, b in zip((decisions[0].action["x"], decisions[0].action["y"]), clock))
    assert reward == 1.0 and info["judge"]["success"] is True
    assert all(_image_size(r) == (532, 1204) for r in server.requests)
    assert agent.totals == {"calls": 6, "retries": 0, "prompt": 7200, "completion": 180}


def _autoglm_model(body: dict[str, Any]) -> Out:
    """A scripted AutoGLM that reads the set-of-mark list of the prompt it is sent."""
    text = body["messages"][-1]["content"][-1]["text"]
    clock = re.search(r"^\[(\d+)\] LinearLayout#app_icon 'Clock'$", text, re.MULTILINE)
    if clock:
        return ok(f"<think>The Clock app is mark {clock.group(1)}.</think>\n"
                  f"<answer>do(action=\"Tap\", mark={clock.group(1)})</answer>")
    alarms = len(re.findall(r"^\[\d+\] LinearLayout#alarm_item ", text, re.MULTILINE))
    return ok(f"<think>The list shows {alarms} alarms.</think>\n"
              f"<answer>finish(message=\"There are {alarms} alarms in the Clock app.\")</answer>")


def test_a_text_mode_episode_with_set_of_mark_succeeds() -> None:
    env = gym.make("MobileGym-v0", task="clock.CountAlarms", world="canonical", eval_mode="text")
    with ScriptedServer([_autoglm_model, _autoglm_model]) as server:
        agent = OpenAIAgent(server.url, "autoglm-phone-9b", "autoglm", set_of_mark=True)

        async def episode() -> tuple[float, dict, list[Decision]]:  # every step awaited in one event loop
            obs, info = env.reset(seed=0)
            agent.reset(obs["instruction"], _reset_info(env, info))
            decisions = []
            while True:
                decision = await agent.aact(obs, info)
                decisions.append(decision)
                obs, reward, terminated, truncated, info = env.step(decision.action)
                if terminated or truncated:
                    return reward, info, decisions

        reward, info, decisions = asyncio.run(episode())
    env.close()
    assert decisions[0].action["type"] == "tap" and decisions[0].thought.startswith("The Clock app is mark")
    assert decisions[1].action == {"type": "complete", "text": "There are 4 alarms in the Clock app."}
    assert reward == 1.0 and info["judge"]["success"] is True
    assert all(_image_size(r) == DEVICE for r in server.requests)  # AutoGLM gets the screenshot as captured
    assert "<image 000.png + marks>" in json.dumps(decisions[0].prompt)
