"""The model-family adapters of the OpenAI-compatible agent: golden transcripts and prompts, coordinates.

Each ``tests/data/eval_transcripts/<adapter>.json`` holds, per configuration, checked-in model
replies written as that family answers, the exact device action each must parse to, replies that
must be refused, and the golden prompt of a fixed observation. A prompt change fails
``test_golden_prompt`` until the adapter's ``PROMPT_VERSION`` is bumped and the goldens are
regenerated with ``MOBILEGYM_UPDATE_GOLDEN=1 python -m pytest tests/test_eval_adapters.py``
(that rewrites only the "prompt" and "prompt_version" fields; expected actions are written by hand).
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mobilegym.eval.agents.openai import ADAPTERS, OpenAIAgent, ParseError, make_adapter
from mobilegym.eval.agents.openai.adapters import Reply
from mobilegym.eval.agents.openai.adapters.calls import parse_call
from mobilegym.eval.agents.openai.agent import PreparedStep
from mobilegym.eval.agents.openai.client import Completion, ToolCall
from mobilegym.eval.agents.openai.images import (Frame, ResizePolicy, describe_marks, draw_marks, find_marks,
                                                  smart_resize)
from mobilegym.eval.agents.openai.tree import tree_text

DATA = Path(__file__).parent / "data" / "eval_transcripts"
XML = (DATA / "screen.xml").read_text()
DEVICE = (1080, 2400)
SHOT = np.full((1200, 540, 3), 240, np.uint8)  # render_scale=0.5: the screenshot is half the device
INSTRUCTION = "How many alarms are set in the Clock app?"
UPDATE = os.environ.get("MOBILEGYM_UPDATE_GOLDEN") == "1"


def _load(name: str) -> dict[str, Any]:
    return json.loads((DATA / f"{name}.json").read_text())


CONFIGS = [(name, config) for name in ADAPTERS for config in _load(name)["configs"]]


def _agent(name: str, config: dict[str, Any]) -> OpenAIAgent:
    agent = OpenAIAgent("http://127.0.0.1:9/v1", "test-model", name, adapter_options=config["options"],
                        **config["agent"])
    agent.reset(INSTRUCTION, {"screen_size": DEVICE, "eval_mode": config["eval_mode"], "max_steps": 20,
                              "apps": ["AnswerSheet", "Calendar", "Clock", "Contacts"]})
    return agent


def _golden_step(name: str, config: dict[str, Any]) -> tuple[OpenAIAgent, PreparedStep]:
    """The agent after the config's prelude replies, and its prepared step on the fixed observation."""
    agent = _agent(name, config)
    obs = {"screenshot": SHOT, "a11y": XML, "instruction": INSTRUCTION}
    for reply in config["prelude"]:
        agent.conclude(agent.prepare(obs, {}), Completion(reply))
    return agent, agent.prepare(obs, config["info"])


def _reply(case: dict[str, Any]) -> Completion:
    return Completion(case["response"], tuple(ToolCall(c["name"], c["arguments"]) for c in case.get("tool_calls", ())))


@pytest.mark.parametrize(("name", "config"), CONFIGS, ids=[c["id"] for _, c in CONFIGS])
def test_golden_prompt(name: str, config: dict[str, Any]) -> None:
    agent, step = _golden_step(name, config)
    if UPDATE:
        data = _load(name)
        for entry in data["configs"]:
            if entry["id"] == config["id"]:
                entry["prompt_version"], entry["prompt"] = agent.prompt_version, step.prompt
        (DATA / f"{name}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        return
    hint = (f"{ADAPTERS[name].__name__}'s prompt changed: bump its PROMPT_VERSION and regenerate the goldens with "
            "MOBILEGYM_UPDATE_GOLDEN=1 python -m pytest tests/test_eval_adapters.py")
    if step.prompt != config["prompt"]:
        assert agent.prompt_version != config["prompt_version"], hint
        pytest.fail(f"the golden prompt of {config['id']} is stale for {agent.prompt_version}; regenerate it")
    assert agent.prompt_version == config["prompt_version"], "the prompt is unchanged: PROMPT_VERSION should be too"


@pytest.mark.parametrize(("name", "config"), CONFIGS, ids=[c["id"] for _, c in CONFIGS])
def test_golden_prompt_records_no_image_data(name: str, config: dict[str, Any]) -> None:
    """The recorded prompt names images by placeholder; the request carries the PNG data URLs."""
    _, step = _golden_step(name, config)
    recorded, sent = json.dumps(step.prompt), json.dumps(step.request)
    assert "base64" not in recorded and step.image in recorded
    placeholders = recorded.count("<image ")
    assert placeholders >= 1 and sent.count("data:image/png;base64,") == placeholders
    assert step.prompt[0]["role"] == "system" and step.prompt[-1]["role"] == "user"


@pytest.mark.parametrize(("name", "config", "case"),
                         [(n, c, case) for n, c in CONFIGS for case in c["cases"]],
                         ids=[f"{c['id']}-{i}" for _, c in CONFIGS for i in range(len(c["cases"]))])
def test_transcript_parses_to_device_action(name: str, config: dict[str, Any], case: dict[str, Any]) -> None:
    agent, step = _golden_step(name, config)
    decision = agent.conclude(step, _reply(case))
    assert decision.error is None
    assert decision.action == case["action"]
    assert decision.thought == case["thought"]


@pytest.mark.parametrize(("name", "config", "case"),
                         [(n, c, case) for n, c in CONFIGS for case in c["errors"]],
                         ids=[f"{c['id']}-{i}" for _, c in CONFIGS for i in range(len(c["errors"]))])
def test_garbage_is_a_parse_error(name: str, config: dict[str, Any], case: dict[str, Any]) -> None:
    agent, step = _golden_step(name, config)
    reply = _reply(case)
    with pytest.raises(ParseError) as raised:
        agent.adapter.parse(Reply(reply.text, reply.tool_calls), step.frame)
    assert case["error"] in str(raised.value)
    decision = agent.conclude(step, reply)  # the agent records it as a step without an action
    assert decision.action is None and case["error"] in decision.error


def test_a_parse_error_is_told_to_the_model_on_the_next_step() -> None:
    name, config = next((n, c) for n, c in CONFIGS if n == "json")
    agent, step = _golden_step(name, config)
    agent.conclude(step, Completion("no idea"))
    following = agent.prepare({"screenshot": SHOT, "a11y": XML}, {"last_action_error": "type: unknown action"})
    text = following.prompt[-1]["content"][-1]["text"]
    assert "Your previous reply could not be used: json: the reply holds no JSON object" in text
    assert "rejected" not in text  # the env's complaint about the missing action is not repeated


def test_every_adapter_has_goldens_and_a_version() -> None:
    assert set(ADAPTERS) == {"json", "qwen", "uitars", "autoglm", "tools", "guiowl", "maiui", "uivenus", "gelab"}
    for name, cls in ADAPTERS.items():
        assert cls.PROMPT_VERSION and _load(name)["configs"], name
        assert all(c["prompt_version"].split("@")[1] == cls.PROMPT_VERSION for c in _load(name)["configs"])


# coordinates --------------------------------------------------------------------------------------
@pytest.mark.parametrize("image_size", [(532, 1204), (1092, 2408), (540, 1200), (300, 640)])
def test_image_pixels_round_trip_exactly(image_size: tuple[int, int]) -> None:
    frame = Frame(DEVICE, image_size, "image")
    for x in range(0, DEVICE[0], 7):
        for y in range(0, DEVICE[1], 97):
            assert frame.to_device(*frame.from_device(x, y)) == (x, y)


@pytest.mark.parametrize(("convention", "digits"), [("relative_1000", 0), ("relative_1", 3)])
def test_relative_coordinates_round_trip_within_their_resolution(convention: str, digits: int) -> None:
    frame = Frame(DEVICE, (540, 1200), convention)
    for x in range(0, DEVICE[0], 13):
        for y in range(0, DEVICE[1], 101):
            mx, my = (round(v, digits) for v in frame.from_device(x, y))
            dx, dy = frame.to_device(mx, my)
            assert abs(dx - x) <= 1 and abs(dy - y) <= 2  # one model unit is 1.08 x 2.4 device pixels


def test_model_image_pixels_map_through_the_resize_to_the_device() -> None:
    # a 1092x2408 smart-resized image of a 1080x2400 device: its centre is the device's centre
    frame = Frame(DEVICE, (1092, 2408), "image")
    assert frame.to_device(546, 1204) == (540, 1200)
    assert frame.to_device(0, 0) == (0, 0) and frame.to_device(1092, 2408) == (1079, 2399)
    assert Frame(DEVICE, (532, 1204), "image").to_device(266, 602) == (540, 1200)
    assert Frame(DEVICE, (10, 10), "relative_1").to_device(0.5, 0.25) == (540, 600)


@pytest.mark.parametrize(("x", "y", "message"), [(-1, 5, "x=-1 is outside 0..1000"), (5, 1000.5, "y=1000.5 is outside"),
                                                 (float("nan"), 5, "must be finite"), (True, 5, "must be a number"),
                                                 ("12", 5, "must be a number")])
def test_bad_coordinates_are_parse_errors(x: Any, y: Any, message: str) -> None:
    with pytest.raises(ParseError, match=message.replace("(", r"\(")):
        Frame(DEVICE, (540, 1200), "relative_1000").to_device(x, y)


def test_frame_rejects_unknown_conventions_and_sizes() -> None:
    with pytest.raises(ValueError, match="coordinate convention must be one of"):
        Frame(DEVICE, (10, 10), "absolute")
    with pytest.raises(ValueError, match="frame sizes must be positive"):
        Frame(DEVICE, (0, 10), "image")


def test_smart_resize() -> None:
    assert smart_resize(1080, 2400, 28, 4 * 28 * 28, 16384 * 28 * 28) == (1092, 2408)
    assert smart_resize(540, 1200, 28, 4 * 28 * 28, 16384 * 28 * 28) == (532, 1204)
    assert smart_resize(540, 1200, 32, 64 * 32 * 32, 16384 * 32 * 32) == (544, 1216)
    w, h = smart_resize(1080, 2400, 28, 100 * 28 * 28, 1280 * 28 * 28)  # a server capped at 1280 tokens
    assert w % 28 == h % 28 == 0 and w * h <= 1280 * 28 * 28 and abs(w / h - 0.45) < 0.02
    w, h = smart_resize(54, 120, 28, 100 * 28 * 28, 16384 * 28 * 28)
    assert w % 28 == h % 28 == 0 and w * h >= 100 * 28 * 28
    with pytest.raises(ValueError, match="aspect ratio"):
        smart_resize(1, 500, 28, 1, 10**9)


def test_resize_policies() -> None:
    assert ResizePolicy("max_side", max_side=1280).size(1080, 2400) == (576, 1280)
    assert ResizePolicy("max_side", max_side=1280).size(540, 1200) == (540, 1200)
    assert ResizePolicy("none").size(540, 1200) == (540, 1200)
    with pytest.raises(ValueError, match="resize mode must be one of"):
        ResizePolicy("crop")
    with pytest.raises(ValueError, match="needs a positive max_side"):
        ResizePolicy("max_side")


# set-of-mark and the tree as text ---------------------------------------------------------------------
def test_marks_number_the_clickable_nodes_on_screen() -> None:
    marks = find_marks(XML, DEVICE)
    assert [m.center for m in marks] == [(540, 379), (966, 379), (540, 657), (966, 657), (948, 1980)]
    assert describe_marks(marks).splitlines()[:2] == ["[1] LinearLayout#alarm_item '06:30 Wake up'",
                                                      "[2] Switch#alarm_switch 'ON'"]
    frame = Frame(DEVICE, (540, 1200), "image", marks)
    assert frame.mark(5) == (948, 1980) and frame.mark("2") == (966, 379)
    with pytest.raises(ParseError, match="no marks are drawn"):
        Frame(DEVICE, (540, 1200), "image").mark(1)


def test_draw_marks_outlines_each_box_without_touching_the_input() -> None:
    marks = find_marks(XML, DEVICE)
    drawn = draw_marks(SHOT, marks, DEVICE)
    assert drawn.shape == SHOT.shape and drawn.dtype == np.uint8 and (SHOT == 240).all()
    # the top-left corner of each box (device bounds halved) is coloured; the middle of box 5 is not
    for mark in marks:
        x, y = mark.bounds[0] // 2, mark.bounds[1] // 2
        assert tuple(drawn[y + 1, x + 1]) != (240, 240, 240), mark
    assert tuple(drawn[990, 474]) == (240, 240, 240)
    assert (draw_marks(SHOT, marks, DEVICE) == drawn).all()  # deterministic


def test_tree_text_gives_centres_in_the_model_convention() -> None:
    lines = tree_text(XML, Frame(DEVICE, (532, 1204), "image")).splitlines()
    assert "Switch#alarm_switch 'ON' @(476,190) [click on]" in lines
    assert "ImageButton#add_alarm 'Add alarm' @(467,993) [click]" in lines
    relative = tree_text(XML, Frame(DEVICE, (532, 1204), "relative_1000"))
    assert "Switch#alarm_switch 'ON' @(894,158) [click on]" in relative.splitlines()
    unit = tree_text(XML, Frame(DEVICE, (532, 1204), "relative_1"))
    assert "Switch#alarm_switch 'ON' @(0.894,0.158) [click on]" in unit.splitlines()


# adapters' options and call parsing --------------------------------------------------------------------
def test_make_adapter_names_bad_choices() -> None:
    with pytest.raises(ValueError, match="unknown adapter 'gpt'; expected one of json, qwen, uitars, autoglm"):
        make_adapter("gpt")
    with pytest.raises(ValueError, match="adapter 'qwen' has no option\\(s\\) version; it takes variant"):
        make_adapter("qwen", version="1.5")
    with pytest.raises(ValueError, match="qwen variant must be one of qwen2.5, qwen3"):
        make_adapter("qwen", variant="qwen2")
    with pytest.raises(ValueError, match="uitars version must be one of 1.5, 1"):
        make_adapter("uitars", version="2")
    assert make_adapter("qwen", variant="qwen3").prompt_id == f"qwen/qwen3@{ADAPTERS['qwen'].PROMPT_VERSION}"
    assert make_adapter("qwen", max_pixels=1280 * 28 * 28).resize.max_pixels == 1280 * 28 * 28
    assert make_adapter("json", max_side=None).resize.mode == "none"


def test_parse_call_reads_literals_only() -> None:
    assert parse_call("do(action=\"Tap\", element=[1, 2])") == ("do", {"action": "Tap", "element": [1, 2]})
    assert parse_call("type(content='a\nb')") == ("type", {"content": "a\nb"})
    assert parse_call("press_back() and more text") == ("press_back", {})
    for source, message in (("os.system('x')", "not a readable action call"), ("f(**k)", "not allowed"),
                            ("f(x=open('y'))", "not a literal value"), ("", "not a readable")):
        with pytest.raises(ParseError, match=message):
            parse_call(source)
