"""JSON tasks of the settings and clock suites judged end to end through gym.make + env.step.

The agent taps the centres of nodes found in the accessibility tree, as a user would.
"""
from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401  (registers MobileGym-v0)
from mobilegym.judge import default_registry
from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice

APPS = ["settings", "clock", "answer_sheet"]


class Agent:
    """Drives an environment by tapping nodes it finds in the observation's tree."""

    def __init__(self, task: str, eval_mode: str = "text", seed: int = 0) -> None:
        self.env = gym.make("MobileGym-v0", task=task, eval_mode=eval_mode, obs_parts=("a11y", "instruction"),
                            device=SimDevice(render_scale=0.25, apps=APPS, world="canonical"))  # its facts: 47.3 GB...
        self.obs, self.info = self.env.reset(seed=seed)
        self.reward, self.done, self.last = 0.0, False, {}

    def step(self, action: dict) -> None:
        assert not self.done, "the episode already ended"
        self.obs, self.reward, terminated, truncated, self.last = self.env.step(action)
        self.done = terminated or truncated

    def tap(self, rid: str | None = None, text: str | None = None, index: int = 0) -> None:
        found = [n for n in parse_nodes(self.obs["a11y"])
                 if (rid is None or n.short_id == rid) and (text is None or n.text == text)]
        assert len(found) > index, f"no node rid={rid!r} text={text!r}"
        x, y = found[index].center
        self.step({"type": "tap", "x": x, "y": y})

    def type(self, rid: str, text: str) -> None:
        self.tap(rid)
        self.step({"type": "type", "text": text, "clear": True})

    def finish(self, kind: str = "complete", text: str | None = None) -> dict:
        self.step({"type": kind, **({"text": text} if text is not None else {})})
        assert self.done
        judge = self.last["judge"]
        assert judge["error"] is None, judge["error"]
        return judge


def test_suites_hold_the_json_tasks_without_load_errors():
    registry = default_registry()
    json_errors = {src: err for src, err in registry.errors.items() if src.endswith(".json")}
    assert json_errors == {}
    for task_id in ("settings.wifi_off", "settings.dark_theme_on", "settings.rename_device", "settings.storage_used",
                    "settings.enable_nfc", "clock.enable_gym_alarm", "clock.add_run_alarm",
                    "clock.lunch_alarm_time", "clock.sync_alarms_to_watch"):
        assert registry.refs[task_id].metadata["kind"] == "json"


def test_wifi_off_via_the_ui():
    agent = Agent("settings.wifi_off")
    assert agent.obs["instruction"] == "Turn off Wi-Fi."
    agent.step({"type": "open_app", "app": "settings"})
    agent.tap("network_entry")
    agent.tap("wifi_row")
    judge = agent.finish()
    assert agent.reward == 1.0 and judge["success"]
    assert [c["passed"] for c in judge["checks"]] == [True, True]


def test_wifi_off_fails_when_airplane_mode_is_used_instead():
    agent = Agent("settings.wifi_off")
    agent.step({"type": "open_app", "app": "settings"})
    agent.tap("network_entry")
    agent.tap("airplane_mode_row")
    judge = agent.finish()
    assert agent.reward == 0.0 and not judge["success"]


def test_dark_theme_checks_state_and_pixels_after_postconfig():
    agent = Agent("settings.dark_theme_on")
    agent.step({"type": "open_app", "app": "settings"})
    agent.tap("display_entry")
    agent.tap("dark_mode_row")
    judge = agent.finish()
    assert agent.reward == 1.0, judge["checks"]
    assert agent.last["app"] == "launcher"  # postconfig went home before the screenshot


def test_rename_device_by_typing():
    agent = Agent("settings.rename_device", eval_mode="grounded")
    agent.step({"type": "open_app", "app": "settings"})
    agent.tap("about_entry")
    agent.tap("device_name")
    agent.type("name_input", "  lab phone ")
    agent.tap("button1")
    assert agent.finish()["success"]


def test_storage_query_in_text_mode():
    agent = Agent("settings.storage_used", eval_mode="text")
    agent.step({"type": "answer", "text": "About 47.3 GB are used"})
    assert agent.finish()["success"]
    wrong = Agent("settings.storage_used", eval_mode="text")
    wrong.step({"type": "answer", "text": "128 GB"})
    assert not wrong.finish()["success"]


def test_storage_query_in_grounded_mode_through_the_answer_sheet():
    agent = Agent("settings.storage_used", eval_mode="grounded")
    assert "AnswerSheet" in agent.obs["instruction"]
    assert agent.info["max_steps"] == 30
    agent.step({"type": "open_app", "app": "answer_sheet"})
    fields = [n for n in parse_nodes(agent.obs["a11y"]) if n.cls.endswith("EditText")]
    assert fields, "the AnswerSheet shows an input"
    agent.step({"type": "type", "text": "47.3", "x": fields[0].center[0], "y": fields[0].center[1]})
    agent.tap("submit")
    judge = agent.finish()
    assert judge["success"], judge["checks"]


def test_infeasible_nfc_scores_only_an_abort():
    agent = Agent("settings.enable_nfc")
    agent.step({"type": "open_app", "app": "settings"})
    assert agent.finish("abort", "There is no NFC setting on this phone")["success"]
    hopeful = Agent("settings.enable_nfc")
    hopeful.step({"type": "open_app", "app": "settings"})
    judge = hopeful.finish("complete")
    assert hopeful.reward == 0.0 and judge["checks"][0]["field"] == "infeasible"


def test_aborting_a_feasible_task_scores_zero():
    agent = Agent("clock.enable_gym_alarm")
    judge = agent.finish("abort")
    assert agent.reward == 0.0 and judge["checks"][0]["field"] == "agent_action"


def test_enable_gym_alarm_from_the_alarm_list():
    agent = Agent("clock.enable_gym_alarm")
    assert agent.last == {} and agent.info["app"] == "clock"  # config opened the app
    switches = [n for n in parse_nodes(agent.obs["a11y"]) if n.short_id == "alarm_switch"]
    gym_switch = next(n for n in switches if n.desc == "Gym")
    agent.step({"type": "tap", "x": gym_switch.center[0], "y": gym_switch.center[1]})
    assert agent.finish()["success"]


def test_add_alarm_through_the_form():
    agent = Agent("clock.add_run_alarm")
    agent.step({"type": "open_app", "app": "clock"})
    agent.tap("add_alarm")
    agent.tap("alarm_time_input")  # the time picker, in its keyboard-entry mode
    agent.tap("toggle_mode")
    agent.type("input_hour", "06")
    agent.type("input_minute", "45")
    agent.tap("button1")
    agent.type("label_input", "Run")
    agent.tap("day_Sat")
    agent.tap("save_alarm")
    judge = agent.finish()
    assert judge["success"], judge["checks"]


def test_add_alarm_with_the_wrong_day_fails_one_metric():
    agent = Agent("clock.add_run_alarm")
    agent.step({"type": "open_app", "app": "clock"})
    agent.tap("add_alarm")
    agent.tap("alarm_time_input")  # the time picker, in its keyboard-entry mode
    agent.tap("toggle_mode")
    agent.type("input_hour", "06")
    agent.type("input_minute", "45")
    agent.tap("button1")
    agent.type("label_input", "Run")
    agent.tap("day_Sun")
    agent.tap("save_alarm")
    judge = agent.finish()
    assert not judge["success"] and [c["passed"] for c in judge["checks"]] == [True, False]


def _twelve_hour(hhmm: str) -> str:
    hour, minute = map(int, hhmm.split(":"))
    return f"{hour % 12 or 12}:{minute:02d} {'pm' if hour >= 12 else 'am'}"


def _half_an_hour_later(hhmm: str) -> str:
    hour, minute = map(int, hhmm.split(":"))
    total = (hour * 60 + minute + 30) % (24 * 60)
    return f"{total // 60:02d}:{total % 60:02d}"


@pytest.mark.parametrize("say, passed", [(lambda t: t, True), (_twelve_hour, True), (_half_an_hour_later, False)])
@pytest.mark.parametrize("seed", [0, 1])
def test_lunch_alarm_time(say, passed, seed):
    agent = Agent("clock.lunch_alarm_time", seed=seed)  # the task prepares a Lunch alarm at a seeded time
    lunch = next(a["time"] for a in agent.env.unwrapped.device.get_state()["apps"]["clock"]["alarms"]
                 if a["label"] == "Lunch")
    agent.step({"type": "answer", "text": say(lunch)})
    assert agent.finish()["success"] is passed


def test_truncation_judges_without_an_abort():
    env = gym.make("MobileGym-v0", task="clock.sync_alarms_to_watch", max_steps=2, obs_parts=("instruction",),
                   device=SimDevice(render_scale=0.25, apps=APPS))
    env.reset(seed=1)
    env.step({"type": "wait", "seconds": 1})
    _, reward, terminated, truncated, info = env.step({"type": "wait", "seconds": 1})
    assert truncated and not terminated and reward == 0.0 and info["judge"]["error"] is None


def test_a_task_file_path_with_files_on_the_sim(tmp_path: Path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "list.txt").write_text("milk\neggs\n")
    doc = {"id": "shopping_file", "instruction": "Nothing to do.", "related_apps": ["settings"],
           "config": [{"type": "push_file", "parameters": {"path": "/sdcard/Download/list.txt", "url": "file:assets/list.txt"}}],
           "evaluator": {"func": "check_include_exclude",
                         "result": {"type": "device_file", "path": "/sdcard/Download/list.txt"},
                         "expected": {"type": "rule", "value": {"include": ["eggs"], "exclude": ["ham"]}}},
           "metadata": {"difficulty": "L1", "objective": "operate"}}
    path = tmp_path / "shopping_file.json"
    path.write_text(json.dumps(doc))
    env = gym.make("MobileGym-v0", task=str(path), obs_parts=("instruction",), device=SimDevice(render_scale=0.25, apps=APPS))
    _, info = env.reset(seed=0)
    assert info["task_id"] == f"{tmp_path.name}.shopping_file"
    _, reward, *_ , info = env.step({"type": "complete"})
    assert info["judge"]["error"] is None and reward == 1.0
