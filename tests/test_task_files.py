"""Hostile task files: non-finite numbers, deep nesting, huge waits, ill-typed state patches,
regexes RE2 cannot run, ill-typed metric options, links out of the suite. Each is a named
TaskFileError at load (or a TaskError at setup), never a raw exception later."""
from __future__ import annotations

import copy
import json
import os
import time
from pathlib import Path

import pytest

from mobilegym.device.base import CAP_SHELL
from mobilegym.judge.errors import TaskError
from mobilegym.judge.json.setup_actions import SetupContext, run_setup
from mobilegym.judge.json.strict import MAX_DEPTH, StrictJSONError, loads_strict
from mobilegym.judge.json.task import load_json_task
from mobilegym.judge.json.validate import TaskFileError
from mobilegym.judge.state.patch_types import patch_type_problems
from tests.test_json_fakes import DEFAULT_STATE, FakeDevice
from tests.test_json_tasks import BASE, doc_with


def write_text(tmp_path: Path, text: str, name: str = "wifi_off", suite: str = "settings") -> Path:
    folder = tmp_path / suite
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(text, encoding="utf-8")
    return path



def load_problems(tmp_path: Path, doc: dict | str) -> list[tuple[str, str]]:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    with pytest.raises(TaskFileError) as info:
        load_json_task(write_text(tmp_path, text))
    return info.value.problems


def has(found: list[tuple[str, str]], where: str, message: str) -> bool:
    return any(path == where and message in text for path, text in found)


# ---------------------------------------------------------------- numbers and nesting

@pytest.mark.parametrize("literal,message", [
    ("NaN", "NaN is not a JSON number"),
    ("Infinity", "Infinity is not a JSON number"),
    ("-Infinity", "-Infinity is not a JSON number"),
    ("1e400", "too large for a 64-bit float"),
    ("-1e400", "too large for a 64-bit float"),
    ("1" + "0" * 30, "outside the 64-bit range"),
    ("9223372036854775808", "outside the 64-bit integer range"),
])
def test_non_finite_and_overflowing_numbers_are_refused_where_they_are(tmp_path, literal, message):
    text = json.dumps(doc_with(ev_expected={"type": "rule", "value": "PLACEHOLDER"})).replace('"PLACEHOLDER"', literal)
    found = load_problems(tmp_path, text)
    assert has(found, "$.evaluator.expected.value", message), found


def test_every_bad_number_is_named(tmp_path):
    doc = doc_with(config=[{"type": "advance_time", "parameters": {"seconds": "A"}}],
                   ev_expected={"type": "rule", "value": ["B", 1, "C"]})
    text = json.dumps(doc).replace('"A"', "1e999").replace('"B"', "NaN").replace('"C"', "Infinity")
    found = load_problems(tmp_path, text)
    assert {path for path, _ in found} == {"$.config[0].parameters.seconds", "$.evaluator.expected.value[0]",
                                           "$.evaluator.expected.value[2]"}


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 900, 10_000, 100_000])
def test_deep_nesting_is_a_named_error_not_a_recursion_error(tmp_path, depth):
    text = json.dumps(doc_with(ev_expected={"type": "rule", "value": "DEEP"}))
    text = text.replace('"DEEP"', "[" * depth + "]" * depth)
    found = load_problems(tmp_path, text)
    assert len(found) == 1 and "nested deeper than 64 levels" in found[0][1], found
    assert found[0][0].startswith("$")


def test_nesting_up_to_the_limit_loads(tmp_path):
    value = 1
    for _ in range(MAX_DEPTH - 3):  # $ -> evaluator -> expected -> value: three levels already
        value = [value]
    load_json_task(write_text(tmp_path, json.dumps(doc_with(ev_expected={"type": "rule", "value": value}))))


def test_loads_strict_on_its_own():
    assert loads_strict('{"a": [1, 2.5, -3, "x", null, true]}') == {"a": [1, 2.5, -3, "x", None, True]}
    with pytest.raises(StrictJSONError) as info:
        loads_strict('{"a": {"b c": [0, NaN]}}')
    assert info.value.problems == [('$.a["b c"][1]', "NaN is not a JSON number (only finite numbers are allowed)")]
    with pytest.raises(StrictJSONError, match="duplicate key 'a'"):
        loads_strict('{"a": 1, "a": 2}')
    assert loads_strict('{"a": 1, "a": 2}', allow_duplicates=True) == {"a": 2}


def test_a_huge_file_is_refused_unread(tmp_path, monkeypatch):
    from mobilegym.judge.json import task as task_module

    monkeypatch.setattr(task_module, "MAX_TASK_FILE_BYTES", 100)
    found = load_problems(tmp_path, json.dumps(BASE))
    assert has(found, "$", "over the 100-byte task file limit")


# ---------------------------------------------------------------- waits

@pytest.mark.parametrize("kind,seconds", [("advance_time", 1e12), ("advance_time", 86_401), ("sleep", 1e300),
                                          ("sleep", 11), ("sleep", 0)])
def test_waits_are_bounded_at_load(tmp_path, kind, seconds):
    found = load_problems(tmp_path, doc_with(config=[{"type": kind, "parameters": {"seconds": seconds}}]))
    assert any(path == "$.config[0].parameters.seconds" for path, _ in found), found


def test_waits_within_the_bounds_load(tmp_path):
    load_json_task(write_text(tmp_path, json.dumps(doc_with(config=[
        {"type": "advance_time", "parameters": {"seconds": 86_400}}, {"type": "sleep", "parameters": {"seconds": 10}}]))))


@pytest.mark.parametrize("kind,seconds", [("advance_time", 1e12), ("sleep", 1e300), ("sleep", float("nan")),
                                          ("advance_time", float("inf")), ("sleep", True), ("advance_time", "5")])
def test_waits_are_bounded_at_setup_too(kind, seconds):
    device = FakeDevice()
    with pytest.raises(TaskError, match=rf"config\[0\] \({kind}\): {kind} seconds must be a number in"):
        run_setup(SetupContext(device, Path(".")), [{"type": kind, "parameters": {"seconds": seconds}}])
    assert not [c for c in device.calls if c[0] == "wait"]


def test_a_phone_without_a_movable_clock_waits_for_real_only_briefly():
    device = FakeDevice(frozenset({CAP_SHELL}))
    with pytest.raises(TaskError, match="would wait in real time; at most 300 s there"):
        run_setup(SetupContext(device, Path(".")), [{"type": "advance_time", "parameters": {"seconds": 3600}}])
    run_setup(SetupContext(device, Path(".")), [{"type": "advance_time", "parameters": {"seconds": 60}}])
    assert device.calls[-1] == ("wait", 60.0)


def test_a_reset_with_the_largest_waits_works_on_the_simulated_phone(tmp_path):
    import gymnasium as gym

    import mobilegym  # noqa: F401  (registers the env)

    doc = doc_with(config=[{"type": "advance_time", "parameters": {"seconds": 86_400}},
                           {"type": "sleep", "parameters": {"seconds": 10}}])
    env = gym.make("MobileGym-v0", task=str(write_text(tmp_path, json.dumps(doc))))
    try:
        env.reset(seed=0)
        env.step({"type": "wait", "seconds": 1})
    finally:
        env.close()


# ---------------------------------------------------------------- set_state patches

def patch_doc(patch: dict) -> dict:
    return doc_with(config=[{"type": "set_state", "parameters": {"patch": patch}}], related_apps=["clock"],
                    ev_result={"type": "app_state", "path": ".alarms"}, ev_func="length_equal",
                    ev_expected={"type": "rule", "value": 1})


@pytest.mark.parametrize("patch,where,message", [
    ({"apps": {"clock": {"alarms": "notalist"}}}, "$.config[0].parameters.patch.apps.clock.alarms",
     "expected an array like the value it replaces, got string 'notalist'"),
    ({"apps": {"clock": {"alarms": None}}}, "$.config[0].parameters.patch.apps.clock.alarms",
     "an array cannot be replaced by null"),
    ({"apps": {"clock": {"alarms": ["x"]}}}, "$.config[0].parameters.patch.apps.clock.alarms[0]",
     "expected an object"),
    ({"apps": {"clock": {"alarms[]": 5}}}, "$.config[0].parameters.patch.apps.clock.alarms[]", "expected an object"),
    ({"apps": {"clock": None}}, "$.config[0].parameters.patch.apps.clock", "an object cannot be replaced by null"),
    ({"apps": {"clock": {"alarms[id=x]": {}}, "x": 1}, "doc": 1}, "$.config[0].parameters.patch",
     "a state patch has only 'os' and 'apps', got 'doc'"),
    ({"apps": []}, "$.config[0].parameters.patch.apps", "must be an object of app patches, got array"),
])
def test_ill_typed_set_state_patches_are_refused_at_load(tmp_path, patch, where, message):
    found = load_problems(tmp_path, patch_doc(patch))
    assert has(found, where, message), found


def test_real_patches_load(tmp_path):
    for patch in ({"apps": {"clock": {"alarms[]": {"id": "x", "hour": 7, "minute": 0, "label": "New"}}}},
                  {"apps": {"clock": {"alarms": []}}},
                  {"apps": {"clock": {"brand_new_key": {"anything": [1, "two"]}}}},
                  {"apps": {"not_an_app": {"x": 1}}, "os": {"time_ms": 1}}):
        load_json_task(write_text(tmp_path, json.dumps(patch_doc(patch))))


@pytest.mark.parametrize("patch,message", [
    ({"apps": {"clock": {"alarms": "notalist"}}}, "apps.clock.alarms: expected an array"),
    ({"apps": {"clock": {"alarms[id=a1]": {"enabled": "yes"}}}},
     r"apps.clock.alarms\[id=a1\].enabled: expected a boolean like the value it replaces, got string 'yes'"),
    ({"apps": {"clock": {"alarms[id=a1]": "off"}}}, r"apps.clock.alarms\[id=a1\]: expected an object"),
    ({"apps": {"clock": {"alarms[]": {"id": 7}}}}, r"apps.clock.alarms\[\].id: expected a string"),
    ({"apps": {"clock": {"format24": 1}}}, "apps.clock.format24: expected a boolean"),
    ({"os": {"time_ms": "noon"}}, "os.time_ms: expected a number"),
    ({"os": {"time_ms": True}}, "os.time_ms: expected a number"),
    ({"apps": {"clock": {"format24[id=1]": {}}}}, r"apps.clock.format24: is boolean, not an array"),
    ({"state": {}}, "its keys must be 'os' or 'apps'"),
])
def test_ill_typed_patches_are_task_errors_at_setup_and_change_nothing(patch, message):
    device = FakeDevice()
    before = device.get_state()
    with pytest.raises(TaskError, match=r"config\[0\] \(set_state\): set_state patch rejected: .*" + message):
        run_setup(SetupContext(device, Path(".")), [{"type": "set_state", "parameters": {"patch": patch}}])
    assert device.doc == before


def test_well_typed_patches_apply():
    device = FakeDevice()
    run_setup(SetupContext(device, Path(".")), [{"type": "set_state", "parameters": {"patch": {
        "os": {"time_ms": 1773651600000.0, "new_flag": "x"},
        "apps": {"clock": {"alarms[id=a1]": {"enabled": False, "snooze": 5}, "alarms[]": {"id": "a2"},
                           "format24": False},
                 "settings": {"wifi": False}}}}}])
    assert device.doc["apps"]["clock"]["alarms"][1] == {"id": "a2"}
    assert device.doc["apps"]["clock"]["alarms"][0]["snooze"] == 5
    run_setup(SetupContext(device, Path(".")), [{"type": "set_state", "parameters": {"patch": {
        "apps": {"clock": {"alarms[id=a2]": None, "alarms": [{"id": "b", "label": None}]}}}}}])
    assert device.doc["apps"]["clock"]["alarms"] == [{"id": "b", "label": None}]


def test_patch_type_problems_on_its_own():
    doc = copy.deepcopy(DEFAULT_STATE)
    doc["apps"]["mixed"] = {"items": [1, "two", {"x": 1}], "maybe": None}
    assert patch_type_problems(doc, {"apps": {"mixed": {"items": [[1]], "maybe": {"now": "object"}}}}) == []
    assert patch_type_problems(doc, {"apps": {"clock": {"alarms[label=nobody]": 5}}}) == []  # the patch reports it
    assert patch_type_problems(doc, "x") == [("<root>", "a patch must be an object, got string")]


# ---------------------------------------------------------------- regexes

@pytest.mark.parametrize("pattern,message", [
    (r"(a)\1", "invalid escape sequence"),
    (r"(?=a)b", "invalid perl operator"),
    (r"(?<!a)b", "invalid perl operator"),
    ("([", "missing ]"),
    ("a" * 5000, "over the 4096-character limit"),
])
def test_regexes_re2_cannot_run_are_refused_at_load(tmp_path, pattern, message):
    doc = doc_with(ev_func="regex_match", ev_result={"type": "current_route"},
                   ev_expected={"type": "rule", "value": pattern})
    found = load_problems(tmp_path, doc)
    assert has(found, "$.evaluator.expected.value", message), found


def test_a_catastrophic_pattern_is_judged_in_linear_time(tmp_path):
    doc = doc_with(config=[], ev_func="regex_match", ev_result={"type": "app_state", "path": ".about"},
                   ev_expected={"type": "rule", "value": "^(a+)+$"}, ev_options={"full": True})
    ref = load_json_task(write_text(tmp_path, json.dumps(doc)))
    device = FakeDevice()
    device.doc["apps"]["settings"]["about"] = "a" * 100_000 + "b"
    start = time.perf_counter()
    result = ref.start(device).evaluate(last_action="complete")
    assert time.perf_counter() - start < 2.0
    assert result.error is None and result.score == 0.0


# ---------------------------------------------------------------- metric options

@pytest.mark.parametrize("func,options,message", [
    ("regex_match", {"ignore_case": "yes"}, "option 'ignore_case' of metric 'regex_match' must be a boolean, got string"),
    ("regex_match", {"full": 1}, "must be a boolean, got number 1"),
    ("number_within", {"abs_tol": "0.5"}, "option 'abs_tol' of metric 'number_within' must be a number, got string"),
    ("number_within", {"rel_tol": True}, "must be a number, got boolean True"),
    ("a11y_exists", {"resource_id": ["x"]}, "must be a string or null, got array"),
    ("a11y_has_state", {"state": None, "resource_id": "x"}, "option 'state' of metric 'a11y_has_state' must be a string"),
])
def test_metric_option_types_are_checked_at_load(tmp_path, func, options, message):
    doc = doc_with(ev_func=func, ev_options=options, ev_result={"type": "current_route"},
                   ev_expected={"type": "rule", "value": "1"})
    found = load_problems(tmp_path, doc)
    assert has(found, "$.evaluator.options", message), found


def test_well_typed_options_load(tmp_path):
    doc = doc_with(ev_func="number_within", ev_options={"abs_tol": 1, "rel_tol": 0.5},
                   ev_result={"type": "app_state", "path": ".volume"}, ev_expected={"type": "rule", "value": 3})
    load_json_task(write_text(tmp_path, json.dumps(doc)))


# ---------------------------------------------------------------- files

def test_a_link_out_of_the_suite_is_refused(tmp_path):
    outside = tmp_path / "elsewhere" / "wifi_off.json"
    outside.parent.mkdir()
    outside.write_text(json.dumps(BASE))
    suite = tmp_path / "settings"
    suite.mkdir()
    (suite / "wifi_off.json").symlink_to(outside)
    with pytest.raises(TaskFileError, match="outside its folder .*a link out of the suite is refused"):
        load_json_task(suite / "wifi_off.json")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "wifi_off.json").symlink_to(Path("..") / "settings" / "wifi_off.json")
    with pytest.raises(TaskFileError, match="outside its folder"):
        load_json_task(tmp_path / "other" / "wifi_off.json")


def test_a_link_inside_the_suite_loads(tmp_path):
    shared = tmp_path / "settings" / "shared"
    shared.mkdir(parents=True)
    (shared / "wifi_off.json").write_text(json.dumps(BASE))
    (tmp_path / "settings" / "wifi_off.json").symlink_to(Path("shared") / "wifi_off.json")
    assert load_json_task(tmp_path / "settings" / "wifi_off.json").id == "settings.wifi_off"


def test_a_registry_folder_skips_links_out_of_the_suite(tmp_path):
    from mobilegym.judge.registry import Registry

    outside = tmp_path / "secret.json"
    outside.write_text(json.dumps({**BASE, "id": "secret"}))
    suite = tmp_path / "suites" / "settings"
    suite.mkdir(parents=True)
    (suite / "wifi_off.json").write_text(json.dumps(BASE))
    (suite / "secret.json").symlink_to(outside)
    registry = Registry()
    registry.add_folder(tmp_path / "suites")
    assert list(registry.refs) == ["settings.wifi_off"]
    assert any("a link out of the suite is refused" in e for e in registry.errors.values())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_is_not_read(tmp_path):
    folder = tmp_path / "settings"
    folder.mkdir()
    os.mkfifo(folder / "wifi_off.json")
    with pytest.raises(TaskFileError, match="not a regular file"):
        load_json_task(folder / "wifi_off.json")


def test_every_shipped_task_file_passes_the_new_checks():
    root = Path(__file__).resolve().parent.parent / "tasks"
    paths = [p for p in sorted(root.glob("*/*.json")) if p.parent.name != "splits"]
    failures = {}
    for path in paths:
        try:
            load_json_task(path)
        except TaskError as exc:
            failures[str(path)] = str(exc)
    assert not failures, failures
