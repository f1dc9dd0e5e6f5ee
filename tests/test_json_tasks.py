"""Loading, validating and judging JSON tasks on a fake phone."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mobilegym.device.base import CAP_SHELL
from mobilegym.judge.errors import TaskError
from mobilegym.judge.json.getters import GETTERS, getter
from mobilegym.judge.json.validate import TaskFileError, task_schema
from mobilegym.judge.json.task import load_json_task
from mobilegym.judge.json.metrics import METRICS, metric
from tests.test_json_fakes import FakeDevice

BASE = {
    "id": "wifi_off",
    "instruction": {"en": "Turn off Wi-Fi", "zh": "关闭 WLAN"},
    "config": [{"type": "open_app", "parameters": {"app": "settings"}}],
    "related_apps": ["settings"],
    "evaluator": {
        "func": "exact_match",
        "result": {"type": "app_state", "path": ".wifi"},
        "expected": {"type": "rule", "value": False},
    },
    "metadata": {"difficulty": "L1", "objective": "operate", "source": "unit test", "possibility_of_env_change": "low"},
}


def write(tmp_path: Path, doc: dict, name: str | None = None, suite: str = "settings") -> Path:
    folder = tmp_path / suite
    folder.mkdir(exist_ok=True)
    path = folder / f"{name or doc['id']}.json"
    path.write_text(json.dumps(doc))
    return path


def doc_with(**changes) -> dict:
    """BASE with top-level keys replaced (``ev_<key>`` replaces an evaluator key)."""
    doc = copy.deepcopy(BASE)
    for key, value in changes.items():
        if key.startswith("ev_"):
            doc["evaluator"][key[3:]] = value
        else:
            doc[key] = value
    return doc


def load(tmp_path, doc):
    return load_json_task(write(tmp_path, doc))


def problems(tmp_path, doc, name=None) -> list[tuple[str, str]]:
    with pytest.raises(TaskFileError) as info:
        load_json_task(write(tmp_path, doc, name))
    assert str(tmp_path) in str(info.value)
    return info.value.problems


@pytest.fixture()
def spies():
    """A metric and a getter that record each call, registered for one test."""
    calls: list[str] = []

    @metric
    def spy_metric(result, expected, *, tag: str = "") -> float:
        calls.append(f"metric:{tag}")
        return float(result)

    @getter("spy_value")
    def _spy_value(ctx, spec):
        calls.append(f"get:{spec['value']}")
        return spec["value"]

    yield calls
    del METRICS["spy_metric"], GETTERS["spy_value"]


# ---------------------------------------------------------------- loading

def test_load_and_metadata(tmp_path):
    ref = load(tmp_path, BASE)
    assert ref.id == "settings.wifi_off"
    meta = ref.metadata
    assert meta["kind"] == "json" and meta["suite"] == "settings" and meta["difficulty"] == "L1"
    assert meta["max_steps"] == 15 and meta["objective"] == "operate" and meta["infeasible"] is False
    assert meta["related_apps"] == ["settings"] and meta["doc"] == "Turn off Wi-Fi"


def test_start_resets_runs_config_and_picks_the_language(tmp_path):
    ref = load(tmp_path, doc_with(metadata={"difficulty": "L2", "objective": "operate", "max_steps": 45}))
    device = FakeDevice()
    episode = ref.start(device, seed=7, eval_mode="text", language="zh")
    assert device.calls[-2:] == [("reset_state", 7), ("open_app", "settings")]
    assert episode.instruction == "关闭 WLAN" and episode.max_steps == 45
    assert episode.id == "settings.wifi_off" and episode.params == {}
    with pytest.raises(TaskError, match="no instruction for language 'fr'"):
        ref.start(device, language="fr")


def test_a_single_instruction_serves_every_language(tmp_path):
    ref = load(tmp_path, doc_with(instruction="Turn off Wi-Fi"))
    assert ref.start(FakeDevice(), language="zh").instruction == "Turn off Wi-Fi"


def test_a_device_without_state_goes_home_instead_of_resetting(tmp_path):
    ref = load(tmp_path, doc_with(config=[], ev_result={"type": "device_shell", "command": "settings get global wifi_on"},
                              ev_expected={"type": "rule", "value": "0"}))
    device = FakeDevice(frozenset({CAP_SHELL}))
    device.shell_outputs["settings get global wifi_on"] = "0\n"
    episode = ref.start(device)
    assert device.calls[-1] == ("key", "home")
    assert episode.evaluate(last_action="complete").score == 1.0


def test_the_schema_is_valid_and_ships_with_the_package():
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(task_schema())


@pytest.mark.parametrize(
    "changes,where,message",
    [
        ({"instruction": ""}, "$.instruction", "should be non-empty"),
        ({"id": "bad id!"}, "$.id", "does not match"),
        ({"related_apps": []}, "$.related_apps", "should be non-empty"),
        ({"metadata": {"difficulty": "L9", "objective": "operate"}}, "$.metadata.difficulty", "is not one of"),
        ({"metadata": {"difficulty": "L1"}}, "$.metadata", "'objective' is a required property"),
        ({"metadata": {"difficulty": "L1", "objective": "operate", "max_steps": 20}}, "$.metadata.max_steps", "is not one of"),
        ({"extra": 1}, "$", "Additional properties are not allowed ('extra' was unexpected)"),
        ({"ev_conj": "xor"}, "$.evaluator.conj", "is not one of"),
        ({"ev_result": {"type": "app_state"}}, "$.evaluator.result", "'path' is a required property"),
        ({"ev_result": {"type": "app_state", "path": ".x", "pth": 1}}, "$.evaluator.result", "'pth' was unexpected"),
        ({"config": [{"type": "sleep", "parameters": {"seconds": -1}}]}, "$.config[0].parameters.seconds", "less than or equal to the minimum"),
        ({"config": [{"type": "set_state"}]}, "$.config[0]", "'parameters' is a required property"),
        ({"config": [{"type": "push_file", "parameters": {"path": "/sdcard/a"}}]}, "$.config[0].parameters",
         "give exactly one of: content, content_base64, url"),
        ({"config": [{"type": "push_file", "parameters": {"path": "/sdcard/a", "content": "x", "url": "http://a"}}]},
         "$.config[0].parameters", "give exactly one of: content, content_base64, url"),
        ({"ev_func": "infeasible"}, "$.evaluator", "should not be valid"),
    ],
)
def test_schema_errors_name_the_json_path(tmp_path, changes, where, message):
    found = problems(tmp_path, doc_with(**changes))
    assert any(path == where and message in text for path, text in found), found


def test_all_schema_problems_are_reported_at_once(tmp_path):
    doc = doc_with(id=5, related_apps="settings")
    del doc["metadata"]
    found = problems(tmp_path, doc, name="five")
    assert [p for p, _ in found] == ["$", "$.id", "$.related_apps"]
    with pytest.raises(TaskFileError, match=r"3 problems:\n  \$: 'metadata' is a required property"):
        load_json_task(write(tmp_path, doc, "five"))


def test_invalid_json_and_duplicate_keys(tmp_path):
    path = tmp_path / "s" / "x.json"
    path.parent.mkdir()
    path.write_text('{"id": "x",}')
    with pytest.raises(TaskFileError, match=r"x.json: 1 problem:\n  \$: invalid JSON: .*line 1"):
        load_json_task(path)
    path.write_text('{"id": "x", "id": "y"}')
    with pytest.raises(TaskFileError, match="duplicate key 'id'"):
        load_json_task(path)
    with pytest.raises(TaskFileError, match="cannot read"):
        load_json_task(tmp_path / "s" / "missing.json")


@pytest.mark.parametrize(
    "changes,where,message",
    [
        ({"ev_func": "exactly"}, "$.evaluator.func", "unknown metric 'exactly'"),
        ({"ev_result": {"type": "vm_file"}}, "$.evaluator.result.type", "unknown getter 'vm_file'"),
        ({"config": [{"type": "download"}]}, "$.config[0].type", "unknown setup action 'download'"),
        ({"ev_postconfig": [{"type": "eval_python"}]}, "$.evaluator.postconfig[0].type", "unknown setup action"),
        ({"ev_options": {"tolerance": 1}}, "$.evaluator.options", "unknown option 'tolerance' for metric 'exact_match'"),
        ({"ev_result": {"type": "app_state", "path": ".a[x"}}, "$.evaluator.result.path", "unclosed '['"),
        ({"config": [{"type": "push_file", "parameters": {"path": "/etc/hosts", "content": "x"}}]},
         "$.config[0].parameters.path", "outside the allowed folders"),
        ({"config": [{"type": "push_file", "parameters": {"path": "/sdcard/a", "url": "ftp://host/a"}}]},
         "$.config[0].parameters.url", "scheme 'ftp'"),
        ({"config": [{"type": "push_file", "parameters": {"path": "/sdcard/a", "url": "file:../../etc/passwd"}}]},
         "$.config[0].parameters.url", "outside the task folder"),
        ({"config": [{"type": "push_file", "parameters": {"path": "/sdcard/a", "url": "file:missing.txt"}}]},
         "$.config[0].parameters.url", "no file"),
        ({"ev_result": {"type": "device_file", "path": "/data/data/com.x/db"}}, "$.evaluator.result.path", "outside"),
        ({"ev_func": ["exact_match", "infeasible"], "ev_result": [{"type": "answer"}, {"type": "answer"}],
          "ev_expected": [None, None]}, "$.evaluator.func[1]", '"infeasible" must be the only func'),
    ],
)
def test_semantic_errors_name_the_json_path(tmp_path, changes, where, message):
    found = problems(tmp_path, doc_with(**changes))
    assert any(path == where and message in text for path, text in found), found


def test_the_file_name_must_match_the_id(tmp_path):
    assert problems(tmp_path, BASE, name="other") == [("$.id", "id 'wifi_off' must equal the file name 'other'")]


@pytest.mark.parametrize(
    "changes,where,message",
    [
        ({"ev_func": ["exact_match", "contains"]}, "$.evaluator.result", "must be a list of 2 entries, one per func"),
        ({"ev_func": ["exact_match", "contains"], "ev_result": [{"type": "answer"}]},
         "$.evaluator.result", "has 1 entries but func has 2"),
        ({"ev_func": ["exact_match", "contains"], "ev_result": [{"type": "answer"}] * 2, "ev_expected": [None]},
         "$.evaluator.expected", "has 1 entries but func has 2"),
        ({"ev_func": ["exact_match", "contains"], "ev_result": [{"type": "answer"}] * 2,
          "ev_expected": [None, None], "ev_options": [{}, {}, {}]}, "$.evaluator.options", "has 3 entries but func has 2"),
        ({"ev_result": [{"type": "answer"}]}, "$.evaluator.result", "is a list but func is a single metric"),
    ],
)
def test_list_length_mismatch_is_a_task_error(tmp_path, changes, where, message):
    assert problems(tmp_path, doc_with(**changes)) == [(where, message)]


def test_list_entries_may_be_omitted_or_null(tmp_path):
    doc = doc_with(ev_func=["exact_match", "contains"], ev_expected=None, ev_options=None,
               ev_result=[{"type": "app_state", "path": ".wifi"}, {"type": "app_state", "path": ".wifi_network"}])
    del doc["evaluator"]["expected"], doc["evaluator"]["options"]
    assert load(tmp_path, doc).start(FakeDevice()).evaluate(last_action="complete").score == 0.0


def test_loading_never_runs_code(tmp_path):
    doc = doc_with(ev_func="__import__", config=[{"type": "__init__"}])
    found = problems(tmp_path, doc)
    assert {p for p, _ in found} >= {"$.evaluator.func", "$.config[0].type"}


# ---------------------------------------------------------------- judging

def test_success_and_failure(tmp_path):
    ref = load(tmp_path, BASE)
    device = FakeDevice()
    episode = ref.start(device)
    result = episode.evaluate(answer=None, last_action="complete")
    assert (result.success, result.score, result.error) == (False, 0.0, None)
    assert result.checks == [{"field": "exact_match(app_state .wifi)", "expected": False, "actual": True, "passed": False}]
    assert not episode.goal_reached() and episode.progress() == 0.0
    device.doc["apps"]["settings"]["wifi"] = False
    assert episode.goal_reached() and episode.progress() == 1.0
    result = episode.evaluate(last_action="complete")
    assert (result.success, result.score, result.progress, result.clean) == (True, 1.0, 1.0, True)
    assert result.to_dict()["checks"][0]["passed"] is True


def list_task(tmp_path, conj: str, values: list[int]) -> dict:
    n = len(values)
    return doc_with(ev_func=["spy_metric"] * n, ev_conj=conj,
                ev_result=[{"type": "spy_value", "value": v} for v in values],
                ev_expected=[None] * n, ev_options=[{"tag": str(i)} for i in range(n)])


@pytest.mark.parametrize(
    "conj,values,score,evaluated",
    [
        ("and", [1, 1, 1], 1.0, 3),
        ("and", [1, 0, 1], 0.0, 2),
        ("or", [0, 1, 0], 1.0, 2),
        ("or", [0, 0, 0], 0.0, 3),
    ],
)
def test_conjunctions_short_circuit(tmp_path, spies, conj, values, score, evaluated):
    episode = load(tmp_path, list_task(tmp_path, conj, values)).start(FakeDevice())
    result = episode.evaluate(last_action="complete")
    assert result.score == score and result.success == (score == 1.0)
    assert spies == [x for i in range(evaluated) for x in (f"get:{values[i]}", f"metric:{i}")]
    assert len(result.checks) == evaluated


def test_and_gives_the_mean_of_partial_scores(tmp_path, spies):
    doc = doc_with(ev_func=["spy_metric", "spy_metric"], ev_expected=[None, None],
               ev_result=[{"type": "spy_value", "value": 1}, {"type": "spy_value", "value": 0.5}])
    result = load(tmp_path, doc).start(FakeDevice()).evaluate(last_action="complete")
    assert result.score == 0.75 and not result.success and result.progress == 0.5


def test_progress_evaluates_every_metric(tmp_path, spies):
    episode = load(tmp_path, list_task(tmp_path, "and", [0, 1, 1])).start(FakeDevice())
    assert episode.progress() == pytest.approx(2 / 3)
    assert not episode.goal_reached()


def test_infeasible_scores_only_an_abort(tmp_path):
    doc = doc_with(id="teleport", evaluator={"func": "infeasible"})
    ref = load(tmp_path, doc)
    assert ref.metadata["infeasible"]
    episode = ref.start(FakeDevice())
    assert not episode.goal_reached() and episode.progress() == 0.0
    assert episode.evaluate(last_action="complete").score == 0.0
    assert episode.evaluate(last_action=None).score == 0.0
    result = episode.evaluate(last_action="abort")
    assert (result.success, result.score) == (True, 1.0)
    assert result.checks == [{"field": "infeasible", "expected": "abort (the task cannot be done)",
                              "actual": "abort", "passed": True}]


def test_abort_on_a_feasible_task_scores_zero_even_when_the_state_is_right(tmp_path):
    episode = load(tmp_path, BASE).start(FakeDevice())
    episode.device.doc["apps"]["settings"]["wifi"] = False
    result = episode.evaluate(last_action="abort")
    assert (result.success, result.score, result.error) == (False, 0.0, None)
    assert result.checks == [{"field": "agent_action", "expected": "finish the task (it is feasible)",
                              "actual": "abort", "passed": False}]
    assert result.warnings == ["the agent aborted a feasible task"]


def test_postconfig_runs_once_before_the_getters_and_not_when_peeking(tmp_path):
    doc = doc_with(ev_postconfig=[{"type": "set_state", "parameters": {"patch": {"apps": {"settings": {"wifi": False}}}}}])
    episode = load(tmp_path, doc).start(FakeDevice())
    assert episode.evaluate(last_action=None).score == 0.0
    assert episode.goal_reached() is False
    assert episode.evaluate(last_action="complete").score == 1.0
    episode.device.doc["apps"]["settings"]["wifi"] = True
    assert episode.evaluate(last_action="complete").score == 0.0


def test_initial_state_getter_compares_with_the_start(tmp_path):
    doc = doc_with(id="add_alarm", related_apps=["clock"],
               ev_func="number_within", ev_result={"type": "app_state", "path": ".alarms", "initial": False},
               ev_expected=None)
    doc["evaluator"] = {"func": ["length_equal", "exact_match"],
                        "result": [{"type": "app_state", "path": ".alarms"},
                                   {"type": "app_state", "path": ".alarms[0]"}],
                        "expected": [{"type": "rule", "value": 2},
                                     {"type": "app_state", "path": ".alarms[0]", "initial": True}]}
    episode = load(tmp_path, doc).start(FakeDevice())
    episode.device.doc["apps"]["clock"]["alarms"].append({"id": "a2"})
    assert episode.evaluate(last_action="complete").success
    episode.device.doc["apps"]["clock"]["alarms"][0]["enabled"] = False
    assert not episode.evaluate(last_action="complete").success


def answer_task(tmp_path, **evaluator) -> dict:
    doc = doc_with(id="count", related_apps=["clock"], evaluator=evaluator,
               answer_fields={"question": "How many alarms?", "fields": [
                   {"type": "number", "label": "Alarms"},
                   {"type": "text", "label": "Labels", "repeatable": True}]})
    doc["metadata"]["objective"] = "query"
    return doc


def test_answer_getter_in_text_mode_reads_the_answer_action(tmp_path):
    doc = answer_task(tmp_path, func="answer_match", result={"type": "answer"}, expected={"type": "rule", "value": 1})
    episode = load(tmp_path, doc).start(FakeDevice(), eval_mode="text")
    assert episode.instruction == "Turn off Wi-Fi" and episode.max_steps == 15
    assert episode.evaluate(answer="There is 1 alarm", last_action="complete").success
    assert not episode.evaluate(answer="2", last_action="complete").success
    assert not episode.evaluate(answer=None, last_action="complete").success


def test_answer_getter_in_grounded_mode_reads_the_submitted_sheet(tmp_path):
    doc = answer_task(tmp_path, func=["number_within", "set_equal", "answer_match"],
                      result=[{"type": "answer", "field": 0}, {"type": "answer", "field": 1}, {"type": "answer"}],
                      expected=[{"type": "rule", "value": 1}, {"type": "rule", "value": ["Work", "Gym"]},
                                {"type": "rule", "value": ["Work", "Gym"]}])
    device = FakeDevice()
    episode = load(tmp_path, doc).start(device, eval_mode="grounded")
    assert episode.instruction.startswith("Turn off Wi-Fi. Then open the AnswerSheet")
    assert episode.max_steps == 30 and episode.metadata["eval_mode"] == "grounded"
    sheet = device.doc["apps"]["answer_sheet"]
    assert sheet["question"] == "How many alarms?" and [f["label"] for f in sheet["fields"]] == ["Alarms", "Labels"]
    sheet["answers"] = {"0": "1", "1": ["Gym", " Work "]}
    result = episode.evaluate(answer="ignored in grounded mode", last_action="complete")
    assert not result.success and result.checks[0]["actual"] is None
    sheet["submitted"] = True
    result = episode.evaluate(last_action="complete")
    assert result.success, result.checks
    assert result.checks[2]["actual"] == "1, Gym, Work"


@pytest.mark.parametrize(
    "changes,where,message",
    [
        ({"answer_fields": None}, "$.evaluator.result", "must declare answer_fields"),
        ({"field": 5}, "$.evaluator.result.field", "answer field 5 does not exist (2 declared)"),
        ({"answer_fields": [{"type": "choice", "label": "Which"}]}, "$.answer_fields", "needs non-empty 'options'"),
    ],
)
def test_answer_problems(tmp_path, changes, where, message):
    doc = answer_task(tmp_path, func="exact_match", result={"type": "answer", "field": changes.get("field", 0)},
                      expected={"type": "rule", "value": 1})
    if "answer_fields" in changes:
        if changes["answer_fields"] is None:
            del doc["answer_fields"]
        else:
            doc["answer_fields"] = changes["answer_fields"]
    found = problems(tmp_path, doc)
    assert any(path == where and message in text for path, text in found), found


def test_task_errors_are_reported_apart_from_agent_failures(tmp_path):
    # a literal pattern is checked at load (tests/test_task_files.py); one read from the phone only when judging
    doc = doc_with(ev_func="regex_match", ev_result={"type": "app_state", "path": "settings:.about"},
               ev_expected={"type": "app_state", "path": "settings:.pattern"},
               config=[{"type": "set_state", "parameters": {"patch": {"apps": {"settings": {"pattern": "(["}}}}}])
    result = load(tmp_path, doc).start(FakeDevice()).evaluate(last_action="complete")
    assert result.error is not None and "$.evaluator.func (regex_match): invalid regular expression" in result.error
    assert result.score == 0.0 and not result.success
    doc = doc_with(ev_result={"type": "app_state", "path": "mail:.inbox"})
    result = load(tmp_path, doc).start(FakeDevice()).evaluate(last_action="complete")
    assert "no app 'mail'" in result.error
    doc = doc_with(ev_result={"type": "device_shell", "command": "id"})
    result = load(tmp_path, doc).start(FakeDevice(frozenset({"state"}))).evaluate(last_action="complete")
    assert "device_shell needs the device capability 'shell'" in result.error


def test_config_failures_are_task_errors(tmp_path):
    doc = doc_with(config=[{"type": "execute", "parameters": {"command": "svc wifi disable"}}])
    with pytest.raises(TaskError, match=r"\$.config\[0\] \(execute\): execute needs the device capability 'shell'"):
        load(tmp_path, doc).start(FakeDevice(frozenset({"state"})))


def test_bulky_evidence_is_summarised_in_checks(tmp_path):
    doc = doc_with(evaluator={"func": ["a11y_has_state", "brightness_in_range"],
                                    "result": [{"type": "a11y_tree"}, {"type": "screenshot"}],
                                    "options": [{"resource_id": "wifi_switch", "state": "checked"}, {"min": 200}],
                                    "expected": [{"type": "rule", "value": True}, None]})
    result = load(tmp_path, doc).start(FakeDevice()).evaluate(last_action="complete")
    assert result.success
    assert result.checks[0]["actual"].endswith("chars)")
    assert result.checks[1] == {"field": "brightness_in_range(screenshot)", "expected": {"min": 200},
                                "actual": "<screenshot 100x200>", "passed": True}


@pytest.mark.parametrize("func", ["contains", "regex_match", "check_include_exclude", "includes_all"])
def test_substring_metrics_cannot_judge_an_answer(tmp_path, func) -> None:
    doc = doc_with(answer_fields=[{"type": "text", "label": "Place"}],
               ev_func=func, ev_result={"type": "answer", "field": 0}, ev_expected={"type": "rule", "value": "x"})
    found = problems(tmp_path, doc)
    assert any(where == "$.evaluator.func" and f"metric {func!r} cannot judge an agent's answer" in text
               for where, text in found), found


def test_answer_metrics_read_answers_with_the_answer_reader(tmp_path) -> None:
    doc = doc_with(answer_fields=[{"type": "text", "label": "Place"}], ev_func="answer_match",
               ev_result={"type": "answer", "field": 0}, ev_expected={"type": "rule", "value": "x"})
    assert load(tmp_path, doc).id.endswith(doc["id"])
