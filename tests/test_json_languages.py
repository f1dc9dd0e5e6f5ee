"""JSON tasks in the phone's language: AnswerSheet texts, state paths and rule values given per language are
picked by the episode's language; a per-language text that does not fit the instruction is a TaskFileError."""
from __future__ import annotations

import pytest

from mobilegym.judge import default_registry
from mobilegym.judge.errors import TaskError
from mobilegym.judge.json.languages import pick
from mobilegym.device.sim import SimDevice
from tests.test_json_fakes import FakeDevice
from tests.test_json_tasks import doc_with, load, problems

ZH_WORK = {"en": "Work", "zh": "上班"}


def labelled_task(**field) -> dict:
    """A query task whose one answer field is ``field`` (over a plain text field), answered from the sheet."""
    doc = doc_with(id="alarm_label", related_apps=["clock"],
                   answer_fields={"question": {"en": "Which alarm?", "zh": "哪个闹钟？"},
                                  "fields": [{"type": "text", "label": "Label", **field}]},
                   answer_hint={"en": "as shown", "zh": "按显示填写"},
                   evaluator={"func": "answer_match", "result": {"type": "answer", "field": 0},
                              "expected": {"type": "rule", "by_language": ZH_WORK}})
    doc["metadata"]["objective"] = "query"
    return doc


def test_the_answer_sheet_reads_in_the_phone_language(tmp_path):
    doc = labelled_task(label={"en": "Alarm label", "zh": "闹钟标签"},
                        hint={"en": "e.g. Gym", "zh": "例如 健身"})
    ref = load(tmp_path, doc)
    assert ref.sheet_fields("zh") == ("哪个闹钟？",
                                      [{"type": "text", "label": "闹钟标签", "hint": "例如 健身"}])
    assert ref.sheet_fields("en")[1][0]["label"] == "Alarm label"
    device = FakeDevice()
    ref.start(device, eval_mode="grounded", language="zh")
    sheet = device.doc["apps"]["answer_sheet"]
    assert sheet["question"] == "哪个闹钟？" and sheet["fields"][0]["label"] == "闹钟标签"


def test_choice_options_are_given_per_language(tmp_path):
    doc = labelled_task(type="choice", options=[{"en": "Work", "zh": "上班"}, "Gym", "Home", {"en": "Shop", "zh": "商店"}])
    assert load(tmp_path, doc).sheet_fields("zh")[1][0]["options"] == ["上班", "Gym", "Home", "商店"]


@pytest.mark.parametrize("language, answer, paid",
                         [("en", "Work", True), ("zh", "上班", True), ("zh", "Work", False)])
def test_rule_values_follow_the_episode_language(tmp_path, language, answer, paid):
    episode = load(tmp_path, labelled_task()).start(FakeDevice(), eval_mode="text", language=language)
    result = episode.evaluate(answer=answer, last_action="complete")
    assert result.success is paid and result.error is None, result.checks
    assert result.checks[0]["expected"] == ZH_WORK[language]


def test_state_paths_follow_the_episode_language(tmp_path):
    doc = doc_with(id="work_on", related_apps=["clock"], evaluator={
        "func": "exact_match", "expected": {"type": "rule", "value": True},
        "result": {"type": "app_state",
                   "path": {"en": ".alarms[label=Work].enabled", "zh": ".alarms[label=上班].enabled"}}})
    ref = load(tmp_path, doc)
    assert ref.expected_changes == [".alarms[label=Work].enabled", ".alarms[label=上班].enabled"]
    device = FakeDevice()
    assert ref.start(device, language="en").evaluate(last_action="complete").success
    result = ref.start(device, language="zh").evaluate(last_action="complete")  # the fake's alarm is labelled Work
    assert not result.success and result.checks[0]["field"] == "exact_match(app_state .alarms[label=上班].enabled)"


@pytest.mark.parametrize("change, where, message", [
    ({"label": {"en": "Label"}}, "$.answer_fields.fields[0].label", "no 'zh' entry (the instruction is in en, zh)"),
    ({"hint": {"en": "x", "zh": "x", "fr": "x"}}, "$.answer_fields.fields[0].hint",
     "'fr' is not a language of the instruction"),
    ({"options": ["a", {"zh": "乙"}], "type": "choice"}, "$.answer_fields.fields[0].options[1]", "no 'en' entry"),
    ({"label": {"en": "Label", "zh": "  "}}, "$.answer_fields", "answer field 0 needs a non-empty 'label'"),
    ({"label": {"en": 3, "zh": "标签"}}, "$.answer_fields.fields[0].label.en", "3 is not of type 'string'"),
    ({"label": {"EN": "Label"}}, "$.answer_fields.fields[0].label", "does not match"),
])
def test_a_per_language_field_text_that_does_not_fit_is_refused(tmp_path, change, where, message):
    found = problems(tmp_path, labelled_task(**change))
    assert any(path == where and message in text for path, text in found), found


def test_a_per_language_text_needs_a_per_language_instruction(tmp_path):
    doc = labelled_task(label={"en": "Label", "zh": "标签"})
    doc["instruction"] = "Which alarm?"
    found = problems(tmp_path, doc)
    assert ("$.answer_fields.fields[0].label", "a text per language needs the instruction per language too") in found
    assert any(p == "$.evaluator.expected.by_language" for p, _ in found), found


@pytest.mark.parametrize("expected, where, message", [
    ({"type": "rule", "value": "Work", "by_language": ZH_WORK}, "$.evaluator.expected",
     "give exactly one of: value, by_language"),
    ({"type": "rule", "by_language": {"en": "Work"}}, "$.evaluator.expected.by_language", "no 'zh' entry"),
    ({"type": "rule", "by_language": {}}, "$.evaluator.expected.by_language", "should be non-empty"),
])
def test_a_rule_per_language_that_does_not_fit_is_refused(tmp_path, expected, where, message):
    doc = labelled_task()
    doc["evaluator"]["expected"] = expected
    found = problems(tmp_path, doc)
    assert any(path == where and message in text for path, text in found), found


def test_per_language_paths_and_regexes_are_checked_in_every_language(tmp_path):
    doc = doc_with(evaluator={"func": ["exact_match", "regex_match"],
                              "result": [{"type": "app_state", "path": {"en": ".wifi", "zh": ".wifi[["}},
                                         {"type": "app_state", "path": ".wifi"}],
                              "expected": [{"type": "rule", "value": False},
                                           {"type": "rule", "by_language": {"en": "a", "zh": "(a+)+\\1"}}]})
    found = {path for path, _ in problems(tmp_path, doc)}
    assert {"$.evaluator.result[0].path.zh", "$.evaluator.expected[1].by_language.zh"} <= found


def test_pick_names_what_lacks_the_language():
    assert pick({"en": "a", "zh": "乙"}, "zh") == "乙" and pick("a", "zh") == "a"
    with pytest.raises(TaskError, match="hint has no 'fr' text"):
        pick({"en": "a"}, "fr", "hint")


def test_shipped_json_tasks_score_on_both_languages_with_their_own_literals():
    """rename_device wants "Lab Phone" on an English phone and "实验室手机" on a Chinese one, not the other."""
    ref = default_registry().refs["settings.rename_device"]
    for language, right, wrong in (("en", "Lab Phone", "实验室手机"), ("zh", "实验室手机", "Lab Phone")):
        phone = SimDevice(language=language)
        episode = ref.start(phone, seed=0, eval_mode="text", language=language)
        for name, paid in ((wrong, False), (right, True)):
            phone.set_state({"apps": {"settings": {"about": {"device_name": name}}}})
            assert episode.evaluate(last_action="complete").success is paid, (language, name)


def test_shipped_json_answer_fields_have_a_chinese_label():
    for task_id, ref in default_registry().refs.items():
        if not hasattr(ref, "cls"):
            english, chinese = ref.sheet_fields("en")[1], ref.sheet_fields("zh")[1]
            assert all(e["label"] != z["label"] for e, z in zip(english, chinese)), task_id


def test_sheet_fields_of_a_language_the_task_lacks_is_a_task_error(tmp_path):
    ref = load(tmp_path, labelled_task(label={"en": "Label", "zh": "标签"}))
    with pytest.raises(TaskError, match="settings.alarm_label: answer_fields question has no 'fr' text"):
        ref.sheet_fields("fr")
