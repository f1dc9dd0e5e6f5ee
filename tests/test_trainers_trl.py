"""The TRL integration: PhoneToolEnv as GRPOTrainer's environment_factory, judge_reward, trl_dataset, and the
tiny GRPO example run end to end (real TRL on CPU)."""
from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mobilegym.trainers.trl import PhoneToolEnv, judge_reward, trl_dataset

ROOT = Path(__file__).resolve().parents[1]
TOOLS = {"tap", "swipe", "type", "key", "open_app", "answer", "complete"}
Env = PhoneToolEnv.configure(eval_mode="text")


def tool_names(cls: type) -> set[str]:
    """What TRL exposes as tools: the class's public functions other than reset and get_reward."""
    return {name for name, _ in inspect.getmembers(cls, predicate=inspect.isfunction)
            if not name.startswith("_") and name not in ("reset", "get_reward")}


def test_tools_are_exactly_the_actions_and_have_docstring_schemas():
    pytest.importorskip("transformers")
    from transformers.utils import get_json_schema

    assert tool_names(Env) == TOOLS
    env = Env()
    for name in TOOLS:
        schema = get_json_schema(getattr(env, name))
        assert schema["function"]["name"] == name and schema["function"]["description"]
    assert set(get_json_schema(env.swipe)["function"]["parameters"]["required"]) == {"x", "y", "x2", "y2"}


def test_copies_of_a_row_start_from_the_identical_phone():
    row = trl_dataset([("clock.CountAlarms", 3)])[0]
    a, b, other = Env(), Env(), Env()
    first = a.reset(**row)
    assert first == b.reset(**row) and first.startswith("Task: ")
    assert np.array_equal(a._obs["screenshot"], b._obs["screenshot"]) and a._obs["text"] == b._obs["text"]
    assert other.reset(task="clock.CountAlarms", seed=4) != first or not np.array_equal(
        other._obs["screenshot"], a._obs["screenshot"])


def test_tools_step_the_phone_and_the_judge_pays():
    env = Env()
    assert "Open the Messages app" in env.reset(task="home.OpenApp", seed=0)
    screen = env.open_app("Messages")
    assert "Step 2 of at most" in screen and "Screen:" in screen
    assert "The phone rejected the action" in env.tap(x=5000, y=10)   # off the 0-1000 range: told, counted
    assert "Step 4 of at most" in env.tap(x=500, y=500)
    assert "episode has ended" in env.complete()
    assert env.done and env.judge["success"] is True
    assert judge_reward([env]) == [1.0]
    assert env.complete() == "The episode has ended; call no more tools."
    assert len(env.actions) == 4


def test_a_rollout_that_stops_early_is_judged_as_it_stands():
    env, idle = Env(), Env()
    env.reset(task="home.OpenApp", seed=0)
    env.open_app("Messages")
    idle.reset(task="home.OpenApp", seed=0)
    assert judge_reward([env, idle]) == [1.0, 0.0]
    assert not env.done and env.judge["success"] is True


def test_step_budget_ends_the_episode():
    env = PhoneToolEnv.configure(eval_mode="text", max_steps=2)()
    env.reset(task="home.OpenApp", seed=0)
    env.key("home")
    assert "step budget" in env.key("home") and env.done and judge_reward([env]) == [0.0]


def test_images_option_returns_the_screenshot_block():
    pytest.importorskip("PIL")
    env = PhoneToolEnv.configure(images=True, render_scale=0.1)()
    first = env.reset(task="home.OpenApp", seed=0)
    assert [part["type"] for part in first] == ["image", "text"]
    assert first[0]["image"].size == (108, 240)
    assert first[1]["text"].startswith("Task: ")


@pytest.mark.parametrize("row, message", [
    ({"seed": 0}, "'task' column"), ({"task": "home.OpenApp"}, "'seed' column"),
    ({"task": "home.OpenApp", "seed": -1}, "'seed' column"), ({"task": 3, "seed": 0}, "'task' column")])
def test_bad_rows_are_named(row, message):
    with pytest.raises(ValueError, match=message):
        Env().reset(**row)


def test_bad_configuration_and_pairs_are_named():
    with pytest.raises(ValueError, match="coord_space"):
        PhoneToolEnv.configure(coord_space="pixels")
    with pytest.raises(ValueError, match="task"):
        PhoneToolEnv.configure(task="home.OpenApp")
    with pytest.raises(TypeError, match="images"):
        PhoneToolEnv.configure(images="yes")
    with pytest.raises(ValueError, match="pairs"):
        trl_dataset(["home.OpenApp"])
    with pytest.raises(ValueError, match="seed"):
        trl_dataset([("home.OpenApp", 1.5)])
    with pytest.raises(ValueError, match="at least one"):
        trl_dataset([])
    with pytest.raises(RuntimeError, match="reset"):
        Env().tap(x=1, y=1)
    with pytest.raises(ValueError, match="environment_factory"):
        judge_reward(None)


def test_trl_reads_the_tool_calls_a_model_writes():
    """A reply in the tiny tokenizer's template, parsed by TRL's own parser, calls the env's tool."""
    pytest.importorskip("trl")
    sys.path.insert(0, str(ROOT / "examples"))
    from train_grpo_trl import tiny_tokenizer
    from trl.chat_template_utils import add_response_schema, parse_response, supports_tool_calling

    tokenizer = add_response_schema(tiny_tokenizer())
    assert supports_tool_calling(tokenizer)
    env = Env()
    env.reset(task="home.OpenApp", seed=0)
    reply = '<tool_call>\n{"name": "open_app", "arguments": {"app": "Messages"}}\n</tool_call><|im_end|>'
    prompt = tokenizer.apply_chat_template(trl_dataset([("home.OpenApp", 0)])[0]["prompt"], tools=[env.open_app],
                                           add_generation_prompt=True, tokenize=True, return_dict=False)
    parsed = parse_response(tokenizer, tokenizer(reply)["input_ids"], prefix=prompt, tools=[env.open_app])
    call = parsed["tool_calls"][0]["function"]
    getattr(env, call["name"])(**call["arguments"])
    assert judge_reward([env]) == [1.0]


@pytest.mark.slow
def test_tiny_grpo_example_runs_real_trl_on_cpu():
    pytest.importorskip("trl")
    done = subprocess.run([sys.executable, str(ROOT / "examples/train_grpo_trl.py"), "--tiny", "--steps", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    steps = re.findall(r"^step (\d+): mean reward (\d\.\d+)$", done.stdout, re.M)
    assert [int(step) for step, _ in steps] == [1, 2]
    assert all(0.0 <= float(reward) <= 1.0 for _, reward in steps)


def test_the_example_names_the_extra_when_trl_is_missing() -> None:
    blocked = ("import runpy, sys; sys.modules['trl'] = None; sys.argv = ['train_grpo_trl.py', '--tiny']; "
               "runpy.run_path('examples/train_grpo_trl.py', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", blocked], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert "pip install 'mobilegym[trl]'" in done.stderr and "Traceback" not in done.stderr
