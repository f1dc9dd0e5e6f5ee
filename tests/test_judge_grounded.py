"""Grounded evaluation: AnswerSheet set-up, Path A (per-field) vs Path B (joined answer), submission."""
from __future__ import annotations

import re

import pytest

from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, PyTaskRef, build_answer_checks
from mobilegym.judge.grounded import joined_answer
from mobilegym.judge.python.episode import uses_path_a
from mobilegym.judge.matchers import extract_numbers
from mobilegym.judge.result import check
from tests.test_judge_fakes import FakeDevice


def start(cls, mode="grounded", seed=0, **kw):
    device = FakeDevice()
    return PyTaskRef(cls).start(device, seed=seed, eval_mode=mode, **kw), device


class CountAlarms(AnswerTask):
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "query", "L1", ["counting"]
    templates = ["How many alarms are there?"]
    answer = (".alarms", len)
    answer_fields = [{"type": "number", "label": "Number of alarms"}]


class CityHighLow(AnswerTask):
    """Two same-typed fields: the swapped-fields trap."""
    suite, app = "demo", "weather"
    objective, difficulty, capabilities = "query", "L2", ["reading"]
    templates = ["High and low in {city}?"]
    parameters = {"city": {"default": "Beijing"}}
    answer = {"high": ".cities[name={city}].high", "low": ".cities[name={city}].low"}
    answer_fields = {"question": "Today's temperatures in {city}?",
                     "fields": [{"type": "number", "label": "High"}, {"type": "number", "label": "Low"}]}
    answer_hint = "Whole degrees for {city}"


class CityHighLowLoose(AnswerTask):
    """The same question judged by a loose custom check_goals (Path B)."""
    suite, app = "demo", "weather"
    objective, difficulty, capabilities = "query", "L2", ["reading"]
    templates = ["High and low in Beijing?"]
    answer = {"high": ".cities[name=Beijing].high", "low": ".cities[name=Beijing].low"}
    answer_fields = [{"type": "text", "label": "High", "hint": "e.g. 23°"}, {"type": "text", "label": "Low"}]

    def check_goals(self, input):
        answer = self.get_answer(input)
        numbers = extract_numbers(input.answer or "")
        return [check(slot, value, input.answer, value in numbers) for slot, value in answer.items()]


class PickCity(AnswerTask):
    suite, app = "demo", "weather"
    objective, difficulty, capabilities = "query", "L2", ["comparison"]
    templates = ["Which is hotter, {a} or {b}?"]
    parameters = {"a": {"default": "Beijing"}, "b": {"default": "Shanghai"}}
    answer_fields = [{"type": "choice", "label": "Hotter city", "options": ["{a}", "{b}", "Tied", "Unknown"]}]

    def get_answer(self, input):
        return re.compile("Shanghai|上海")

    def get_expected_response(self, input):
        return ["Shanghai"]


class ListLabels(AnswerTask):
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "query", "L2", ["listing"]
    templates = ["List the labels of the alarms that are on"]
    answer_fields = [{"type": "text", "label": "Labels", "repeatable": True, "compare": "set"}]

    def get_answer(self, input):
        return {a["id"]: a["label"] for a in input.apps_init["clock"]["alarms"] if a["enabled"]}

    def get_expected_response(self, input):
        return [list(self.get_answer(input).values())]


class ListLabelsInOrder(AnswerTask):
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "query", "L2", ["listing"]
    templates = ["List the alarm labels in order"]
    answer = ".alarms[*].label"
    answer_fields = [{"type": "text", "label": "Labels", "repeatable": True}]

    def get_expected_response(self, input):
        return [self.get_answer(input)]


class EventDay(AnswerTask):
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "query", "L1", ["reading"]
    templates = ["When is the event?"]
    answer = "2026-04-06"
    answer_fields = [{"type": "text", "label": "Date", "matcher": "date"},
                     {"type": "text", "label": "Time", "matcher": "time"},
                     {"type": "text", "label": "Length", "matcher": "duration"}]

    def get_expected_response(self, input):
        return ["2026-04-06", "14:30", "1小时30分"]


class EnableDarkAndCount(CriteriaTask):
    """CriteriaTask defines check_goals below BaseTask: Path B."""
    suite, app = "demo", "settings"
    objective, difficulty, capabilities = "hybrid", "L2", ["toggle"]
    templates = ["Turn on dark mode"]
    criteria = {".dark_mode": True}
    answer_fields = [{"type": "number", "label": "Anything"}]


class HybridCount(BaseTask):
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "hybrid", "L2", ["toggle", "counting"]
    templates = ["Turn on Gym and tell me how many alarms are on"]
    expected_changes = ["alarms[label=Gym].enabled"]
    answer_fields = [{"type": "number", "label": "Alarms on"}]

    def check_goals(self, input):
        gym = next(a for a in input.apps["clock"]["alarms"] if a["label"] == "Gym")
        on = sum(a["enabled"] for a in input.apps["clock"]["alarms"])
        return [check("gym on", True, gym["enabled"], gym["enabled"] is True), *build_answer_checks(on, input.answer)]


class SheetOnlyBase(BaseTask):
    """BaseTask without check_goals but with get_expected_response: Path A."""
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "query", "L1", ["reading"]
    templates = ["First alarm label?"]
    answer_fields = [{"type": "text", "label": "Label"}]

    def get_expected_response(self, input):
        return [input.apps_init["clock"]["alarms"][0]["label"]]


class Regexy(AnswerTask):
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "query", "L1", ["x"]
    templates = ["?"]
    answer = re.compile("x")
    answer_fields = [{"type": "text", "label": "X"}]


class TooFew(AnswerTask):
    suite, app = "demo", "weather"
    objective, difficulty, capabilities = "query", "L1", ["x"]
    templates = ["?"]
    answer = {"high": ".cities[0].high", "low": ".cities[0].low"}
    answer_fields = [{"type": "number", "label": "High"}]


class NoGet(BaseTask):
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "query", "L1", ["x"]
    templates = ["?"]
    answer_fields = [{"type": "text", "label": "X"}]


# --- set-up --------------------------------------------------------------------------------------

def test_sheet_is_written_at_start_with_defaults():
    ep, device = start(CountAlarms)
    sheet = device.app("answer_sheet")
    assert sheet == {"question": "How many alarms are there?", "hint": "",
                     "fields": [{"type": "number", "label": "Number of alarms", "hint": "",
                                 "options": [], "repeatable": False}],
                     "answers": {}, "submitted": False}
    assert ep.instruction == "How many alarms are there? Then open the AnswerSheet app, enter the answer and submit it."
    assert ep.max_steps == 15 + 15


def test_sheet_question_hint_and_options_fill_parameters():
    _, device = start(CityHighLow)
    sheet = device.app("answer_sheet")
    assert sheet["question"] == "Today's temperatures in Beijing?" and sheet["hint"] == "Whole degrees for Beijing"
    _, device = start(PickCity)
    field = device.app("answer_sheet")["fields"][0]
    assert sorted(field["options"]) == ["Beijing", "Shanghai", "Tied", "Unknown"] and field["hint"] == ""
    _, device = start(CityHighLowLoose)
    assert [f["hint"] for f in device.app("answer_sheet")["fields"]] == ["e.g. 23°", ""]


def test_text_mode_leaves_the_sheet_alone():
    ep, device = start(CountAlarms, mode="text")
    assert device.app("answer_sheet")["fields"] == [] and ep.max_steps == 15
    assert "AnswerSheet" not in ep.instruction
    assert ep.evaluate("3 alarms").success and ep.evaluate("3 alarms").eval_path == "text"


def test_chinese_suffix():
    cls = type("ZhCount", (AnswerTask,), {**{k: v for k, v in vars(CountAlarms).items() if not k.startswith("__")},
                                          "templates": ["有几个闹钟？"]})
    ep, _ = start(cls, language="zh")
    assert ep.instruction == "有几个闹钟？然后打开答题卡应用，填写答案并提交。"


def test_tasks_without_fields_fall_back_to_text_evaluation():
    class Plain(AnswerTask):
        suite, app = "demo", "clock"
        objective, difficulty, capabilities = "query", "L1", ["counting"]
        templates = ["How many?"]
        answer = (".alarms", len)

    ep, device = start(Plain)
    assert ep.instruction == "How many?" and ep.max_steps == 15
    assert ep.evaluate("3").success and ep.evaluate("3").eval_path == "text"


# --- path choice ---------------------------------------------------------------------------------

@pytest.mark.parametrize("cls, path_a", [
    (CountAlarms, True), (CityHighLow, True), (SheetOnlyBase, True), (PickCity, True),
    (CityHighLowLoose, False), (EnableDarkAndCount, False), (HybridCount, False),
])
def test_path_choice_walks_the_mro(cls, path_a):
    assert uses_path_a(cls()) is path_a


# --- Path A --------------------------------------------------------------------------------------

def test_path_a_success_and_failures():
    ep, device = start(CountAlarms)
    device.fill_sheet({"0": "3"})
    result = ep.evaluate(last_action="complete")
    assert result.success and result.eval_path == "grounded-A" and result.clean
    assert result.checks == [{"field": "Number of alarms", "expected": 3, "actual": "3", "passed": True},
                             {"field": "answer_sheet.submitted", "expected": True, "actual": True, "passed": True}]
    device.fill_sheet({"0": "3"}, submitted=False)
    unsubmitted = ep.evaluate(last_action="complete")
    assert not unsubmitted.success and unsubmitted.progress == 0.5 and unsubmitted.error is None
    device.fill_sheet({"0": "3 alarms"})
    assert not ep.evaluate().success                      # the number matcher wants a bare number
    device.fill_sheet({"0": "4"})
    assert not ep.evaluate().success
    device.fill_sheet({})
    assert not ep.evaluate().success
    assert not ep.evaluate("3").success                   # a text answer does not count in grounded mode


def test_path_a_rejects_swapped_fields_that_path_b_accepts():
    ep, device = start(CityHighLow)
    device.fill_sheet({"0": "23", "1": "15"})
    assert ep.evaluate().success
    device.fill_sheet({"0": "15", "1": "23"})             # swapped
    swapped = ep.evaluate()
    assert not swapped.success and [c["passed"] for c in swapped.checks] == [False, False, True]
    loose, device = start(CityHighLowLoose)
    device.fill_sheet({"0": "15°", "1": "23°"})
    assert loose.evaluate().success                       # the false positive Path A exists to avoid


def test_path_a_choice_with_override_for_regex_answers():
    ep, device = start(PickCity)
    device.fill_sheet({"0": "Shanghai"})
    assert ep.evaluate().success
    device.fill_sheet({"0": "Tied"})
    assert not ep.evaluate().success


def test_path_a_repeatable_set_and_sequence():
    ep, device = start(ListLabels)
    device.fill_sheet({"0": ["Medicine", "Wake up"]})
    assert ep.evaluate().success                          # order ignored
    device.fill_sheet({"0": ["Medicine", "", "wake up "]})
    assert ep.evaluate().success                          # blank entries dropped, normalised
    device.fill_sheet({"0": ["Medicine"]})
    assert not ep.evaluate().success
    device.fill_sheet({"0": ["Medicine", "Wake up", "Gym"]})
    assert not ep.evaluate().success
    device.fill_sheet({"0": ["Medicine", "Medicine"]})
    assert not ep.evaluate().success                      # each expected value needs its own entry
    ep, device = start(ListLabelsInOrder)
    device.fill_sheet({"0": ["Wake up", "Gym", "Medicine"]})
    assert ep.evaluate().success
    device.fill_sheet({"0": ["Gym", "Wake up", "Medicine"]})
    assert not ep.evaluate().success


def test_path_a_date_time_duration_matchers():
    ep, device = start(EventDay)                          # the fake phone's date is Sunday 2026-04-05
    device.fill_sheet({"0": "明天", "1": "下午2点半", "2": "90分钟"})
    assert ep.evaluate().success
    device.fill_sheet({"0": "Monday", "1": "2:33 pm", "2": "1.5 hours"})
    assert ep.evaluate().success
    device.fill_sheet({"0": "后天", "1": "2:40 pm", "2": "80 min"})
    assert [c["passed"] for c in ep.evaluate().checks] == [False, False, False, True]


def test_path_a_task_bugs_are_errors():
    for cls, message in [(Regexy, "regex"), (TooFew, "one value per field"), (NoGet, "get_expected_response")]:
        ep, device = start(cls)
        device.fill_sheet({"0": "x"})
        result = ep.evaluate()
        assert message in result.error and result.score == 0.0 and not result.success

    class NotAList(AnswerTask):
        suite, app = "demo", "clock"
        objective, difficulty, capabilities = "query", "L1", ["x"]
        templates = ["?"]
        answer = "Gym"
        answer_fields = [{"type": "text", "label": "X", "repeatable": True}]

    ep, device = start(NotAList)
    device.fill_sheet({"0": ["Gym"]})
    assert "must be a list" in ep.evaluate().error


def test_missing_answer_sheet_state_is_a_task_error():
    ep, device = start(CountAlarms)
    del device.doc["apps"]["answer_sheet"]
    assert "AnswerSheet" in ep.evaluate().error


# --- Path B --------------------------------------------------------------------------------------

def test_path_b_joins_values():
    assert joined_answer({"submitted": True, "answers": {"0": "Sunny", "1": "23°", "2": "15°"}}, 3) == "Sunny, 23°, 15°"
    assert joined_answer({"submitted": True, "answers": {"0": ["a", "b"], "2": "c"}}, 3) == "a, b, c"
    assert joined_answer({"submitted": False, "answers": {"0": "x"}}, 1) is None


def test_path_b_hybrid_checks_state_and_answer():
    ep, device = start(HybridCount)
    device.fill_sheet({"0": "3"})
    result = ep.evaluate(last_action="complete")
    assert result.eval_path == "grounded-B" and [c["passed"] for c in result.checks] == [False, False, True]
    next(a for a in device.app("clock")["alarms"] if a["label"] == "Gym")["enabled"] = True
    result = ep.evaluate(last_action="complete")
    assert result.success and result.clean
    device.fill_sheet({"0": "3"}, submitted=False)
    result = ep.evaluate(last_action="complete")
    assert not result.success and result.checks[-1] == {"field": "answer_sheet.submitted", "expected": True,
                                                         "actual": False, "passed": False}
    assert result.checks[1]["actual"] is None             # answers are not injected before submission


def test_path_b_for_criteria_tasks():
    ep, device = start(EnableDarkAndCount)
    device.app("settings")["dark_mode"] = True
    device.fill_sheet({"0": "1"})
    assert ep.evaluate().success and ep.evaluate().eval_path == "grounded-B"
    device.fill_sheet({"0": "1"}, submitted=False)
    assert not ep.evaluate().success


def test_auto_complete_check_reads_the_sheet():
    ep, device = start(CountAlarms)
    assert not ep.goal_reached() and ep.progress() == 0.0
    device.fill_sheet({"0": "3"}, submitted=False)
    assert ep.progress() == 0.5
    device.fill_sheet({"0": "3"})
    assert ep.goal_reached()


class FieldByParam(AnswerTask):
    """answer_fields as a property: the field type follows the sampled parameter."""
    suite, app = "demo", "settings"
    objective, difficulty, capabilities = "query", "L1", ["reading"]
    templates = ["What is the {what}?"]
    parameters = {"what": {"type": "enum", "values": {"model": "model", "storage used": "storage_used_gb"}}}

    @property
    def answer_fields(self):  # type: ignore[override]
        label = next(k for k, v in self.parameters["what"]["values"].items() if v == getattr(self.p, "what", None))
        kind = "number" if self.p.what == "storage_used_gb" else "text"
        return [{"type": kind, "label": label}]

    def get_answer(self, input):
        return input.apps_init["settings"]["about"][self.p.what]


@pytest.mark.parametrize("what, value, kind", [("model", "MG-1 Pro", "text"), ("storage_used_gb", "47.3", "number")])
def test_answer_fields_property(what, value, kind):
    ep, device = start(FieldByParam, params={"what": what})
    assert device.app("answer_sheet")["fields"][0]["type"] == kind
    device.fill_sheet({"0": value})
    assert ep.evaluate().success and ep.metadata["has_answer_fields"] and ep.max_steps == 30
