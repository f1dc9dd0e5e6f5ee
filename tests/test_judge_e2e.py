"""End to end: example tasks judged through env.step on the simulated phone, answering by tapping the AnswerSheet."""
from __future__ import annotations

import json

import gymnasium as gym
import pytest

import mobilegym  # noqa: F401
from mobilegym.judge import AnswerTask, BaseTask, PyTaskRef
from mobilegym.screen_text import parse_nodes
from mobilegym.device.sim import SimDevice

from .uitools import CORE_APPS, tap

# the canonical world: these tests answer with its facts (4 alarms, ...)
SMALL = dict(apps=CORE_APPS, render_scale=0.25, obs_parts=("a11y", "instruction"), world="canonical")


class Driver:
    """Steps an env by tapping nodes of its a11y tree."""

    def __init__(self, task, seed=0, **kw):
        self.env = gym.make("MobileGym-v0", task=task, **{**SMALL, **kw})
        self.obs, self.info = self.env.reset(seed=seed)
        self.last = None

    def nodes(self, rid=None, text=None):
        return [n for n in parse_nodes(self.obs["a11y"])
                if (rid is None or n.short_id == rid) and (text is None or n.text == text)]

    def step(self, action):
        self.obs, reward, terminated, truncated, info = self.env.step(action)
        self.last = (reward, terminated, truncated, info)
        return self.last

    def tap(self, rid=None, text=None, index=0):
        found = self.nodes(rid, text)
        assert len(found) > index, f"no node rid={rid} text={text}"
        x, y = found[index].center
        return self.step({"type": "tap", "x": x, "y": y})

    def type_into(self, rid, text, index=0):
        self.tap(rid, index=index)
        return self.step({"type": "type", "text": text, "clear": True})

    def state(self):
        return self.env.unwrapped.device.get_state()


def test_count_alarms_grounded_by_tapping_the_answer_sheet():
    d = Driver("clock.CountAlarms")
    assert d.obs["instruction"].endswith("? Then open the AnswerSheet app, enter the answer and submit it.")
    assert d.info["max_steps"] == 30
    d.step({"type": "open_app", "app": "answer_sheet"})
    assert d.nodes("question")[0].text.startswith("How many alarms") or d.nodes("question")[0].text.startswith("Count")
    assert d.nodes("field_0_input")
    d.type_into("field_0_input", "4")
    d.tap("submit")
    assert d.state()["apps"]["answer_sheet"] == {**d.state()["apps"]["answer_sheet"], "answers": {"0": "4"},
                                                 "submitted": True}
    reward, terminated, truncated, info = d.step({"type": "complete"})
    assert terminated and not truncated and reward == 1.0
    judge = info["judge"]
    assert judge["success"] and judge["clean"] and judge["eval_path"] == "grounded-A" and judge["error"] is None
    json.dumps(info["judge"])


def test_wrong_and_unsubmitted_answers_fail():
    d = Driver("clock.CountAlarms")
    d.step({"type": "open_app", "app": "answer_sheet"})
    d.type_into("field_0_input", "4")
    reward, terminated, _, info = d.step({"type": "complete"})      # never tapped Submit
    assert terminated and reward == 0.0 and info["judge"]["error"] is None
    assert info["judge"]["checks"][-1] == {"field": "answer_sheet.submitted", "expected": True, "actual": False,
                                           "passed": False}
    d = Driver("clock.CountAlarms")
    d.step({"type": "open_app", "app": "answer_sheet"})
    d.type_into("field_0_input", "5")
    d.tap("submit")
    reward, *_ , info = d.step({"type": "complete"})
    assert reward == 0.0 and info["judge"]["checks"][0]["actual"] == "5"


def test_submit_toggles_and_final_state_counts():
    d = Driver("clock.CountAlarms")
    d.step({"type": "open_app", "app": "answer_sheet"})
    d.type_into("field_0_input", "4")
    d.tap("submit")
    d.tap("submit")                                                # "Edit answer": back to unsubmitted
    assert d.state()["apps"]["answer_sheet"]["submitted"] is False
    reward, *_ = d.step({"type": "complete"})
    assert reward == 0.0


def test_text_mode_answer_action():
    d = Driver("clock.CountAlarms", eval_mode="text")
    assert "AnswerSheet" not in d.obs["instruction"] and d.info["max_steps"] == 15
    d.step({"type": "answer", "text": "There are 4 alarms"})
    reward, terminated, _, info = d.step({"type": "complete"})
    assert terminated and reward == 1.0 and info["judge"]["eval_path"] == "text"


def test_toggle_wifi_by_tapping_is_clean():
    d = Driver("settings.ToggleWifi", seed=1)
    target = d.info["params"]["wifi"]
    assert d.state()["apps"]["settings"]["wifi"] is (not target)   # _invert_criteria
    d.step({"type": "open_app", "app": "settings"})
    d.tap("network_entry")
    d.tap("wifi_row")
    reward, terminated, _, info = d.step({"type": "complete"})
    assert reward == 1.0 and info["judge"]["clean"], info["judge"]


@pytest.mark.parametrize("mode, score", [("strict", 0.0), ("warn", 1.0)])
def test_side_effects_are_reported_through_the_env(mode, score):
    d = Driver("settings.ToggleWifi", seed=1, side_effects=mode)
    d.step({"type": "open_app", "app": "settings"})
    d.tap("network_entry")
    d.tap("wifi_row")
    d.tap("airplane_mode_row")
    reward, _, _, info = d.step({"type": "complete"})
    assert reward == score and not info["judge"]["clean"]
    assert [e["path"] for e in info["judge"]["side_effects"]] == ["apps.settings.airplane_mode"]


def test_abort_scores_zero_on_a_feasible_task():
    d = Driver("settings.ToggleWifi", seed=1)
    d.step({"type": "open_app", "app": "settings"})
    d.tap("network_entry")
    d.tap("wifi_row")
    reward, terminated, _, info = d.step({"type": "abort"})
    assert terminated and reward == 0.0 and info["judge"]["error"] is None


def test_auto_complete_mode_ends_when_the_goal_holds():
    d = Driver("settings.ToggleWifi", seed=2, reward_mode="auto_complete")
    d.step({"type": "open_app", "app": "settings"})
    d.tap("network_entry")
    reward, terminated, *_ = d.tap("wifi_row")
    assert terminated and reward == 1.0


def test_hybrid_path_b_through_the_env():
    d = Driver("clock.DeleteAlarmAndCount", seed=0)
    label = d.info["params"]["label"]
    d.step({"type": "open_app", "app": "clock"})
    item = next(n for n in d.nodes("alarm_item") if n.desc.endswith(label))
    d.step({"type": "tap", "x": item.center[0], "y": item.center[1]})
    d.tap("delete_alarm")
    assert all(a["label"] != label for a in d.state()["apps"]["clock"]["alarms"])
    d.step({"type": "open_app", "app": "answer_sheet"})
    d.type_into("field_0_input", "3")
    d.tap("submit")
    reward, *_ , info = d.step({"type": "complete"})
    assert reward == 1.0 and info["judge"]["eval_path"] == "grounded-B" and info["judge"]["clean"], info["judge"]


class EnabledLabels(AnswerTask):
    """Repeatable set field: labels of the alarms that are on."""
    suite, app = "e2e", "clock"
    objective, difficulty, capabilities = "query", "L2", ["listing"]
    templates = ["Which alarms are on?"]
    answer_fields = [{"type": "text", "label": "Alarm labels", "repeatable": True, "compare": "set"}]

    def get_answer(self, input):
        return {a["id"]: a["label"] for a in input.apps_init["clock"]["alarms"] if a["enabled"]}

    def get_expected_response(self, input):
        return [list(self.get_answer(input).values())]


class GymIsOn(BaseTask):
    """Choice field, Path A through get_expected_response."""
    suite, app = "e2e", "clock"
    objective, difficulty, capabilities = "query", "L1", ["state-reading"]
    templates = ["Is the Gym alarm on?"]
    answer_fields = {"question": "Is the 'Gym' alarm switched on?",
                     "fields": [{"type": "choice", "label": "Gym alarm", "options": ["On", "Off", "Snoozed", "Deleted"]}]}
    answer_hint = "Pick one"

    def get_expected_response(self, input):
        gym_alarm = next(a for a in input.apps_init["clock"]["alarms"] if a["label"] == "Gym")
        return ["On" if gym_alarm["enabled"] else "Off"]


def test_repeatable_entries_added_and_removed_by_tapping():
    d = Driver(EnabledLabels)
    d.step({"type": "open_app", "app": "answer_sheet"})
    d.type_into("field_0_input", "Lunch")
    d.tap("field_0_add")
    d.type_into("field_0_input", "Gym", index=1)
    d.tap("field_0_add")
    d.type_into("field_0_input", "Wake up", index=2)
    d.tap("field_0_add")
    d.type_into("field_0_input", "Medicine", index=3)
    d.tap("field_0_remove", index=1)                                # Gym is off: remove it
    assert d.state()["apps"]["answer_sheet"]["answers"]["0"] == ["Lunch", "Wake up", "Medicine"]
    d.tap("submit")
    reward, *_ , info = d.step({"type": "complete"})
    assert reward == 1.0, info["judge"]


def test_choice_buttons_question_and_hint():
    d = Driver(GymIsOn)
    d.step({"type": "open_app", "app": "answer_sheet"})
    assert d.nodes("question")[0].text == "Is the 'Gym' alarm switched on?"
    assert d.nodes("hint")[0].text == "Pick one"
    options = d.nodes("field_0_option")
    assert sorted(n.text for n in options) == ["Deleted", "Off", "On", "Snoozed"]
    d.tap("field_0_option", text="On")
    d.tap("submit")
    reward, *_ , info = d.step({"type": "complete"})
    assert reward == 0.0 and info["judge"]["checks"][0]["actual"] == "On"
    d = Driver(GymIsOn)
    d.step({"type": "open_app", "app": "answer_sheet"})
    d.tap("field_0_option", text="Off")
    d.tap("submit")
    reward, *_ = d.step({"type": "complete"})
    assert reward == 1.0


@pytest.mark.parametrize("task_id", ["clock.CountAlarms", "clock.AddAlarm", "settings.SetFontSize", "clock.AlarmTime"])
def test_example_tasks_start_on_the_real_phone(task_id):
    phone = SimDevice(apps=CORE_APPS)
    ref = PyTaskRef(mobilegym.judge.default_registry().refs[task_id].cls)
    for seed in range(3):
        ep = ref.start(phone, seed=seed)
        result = ep.evaluate(last_action="complete")
        assert result.error is None and not result.success and result.clean


@pytest.mark.parametrize("language, placeholder", [("en", "Please enter"), ("zh", "请输入")])
def test_default_placeholders_on_the_real_sheet(language, placeholder):
    phone = SimDevice(apps=CORE_APPS, language=language)
    PyTaskRef(EnabledLabels).start(phone, seed=0, language=language)
    phone.open_app("answer_sheet")
    assert placeholder in phone.a11y_xml()
    tap(phone, "field_0_add")
    assert phone.get_state()["apps"]["answer_sheet"]["answers"]["0"] == ["", ""]
