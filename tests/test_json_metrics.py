"""Every metric of JSON tasks, and the and/or conjunction."""
from __future__ import annotations

import numpy as np
import pytest

from mobilegym.judge.json.conj import conjoin
from mobilegym.judge.errors import TaskError
from mobilegym.judge.json.metrics import METRICS, MetricConfigError, get_metric, metric

TREE = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.mobilegym.settings"
 content-desc="" checkable="false" checked="false" enabled="true" selected="false" bounds="[0,0][1080,2400]">
 <node index="0" text="Wi-Fi" resource-id="com.mobilegym.settings:id/wifi_label" class="android.widget.TextView"
  package="com.mobilegym.settings" content-desc="" checkable="false" checked="false" enabled="true" selected="false"
  bounds="[0,100][800,200]" />
 <node index="1" text="" resource-id="com.mobilegym.settings:id/wifi_switch" class="android.widget.Switch"
  package="com.mobilegym.settings" content-desc="Wi-Fi switch" checkable="true" checked="true" enabled="true"
  selected="false" bounds="[800,100][1080,200]" />
 <node index="2" text="Bluetooth  Off" resource-id="com.mobilegym.settings:id/bt_label" class="android.widget.TextView"
  package="com.mobilegym.settings" content-desc="" checkable="false" checked="false" enabled="false"
  selected="false" bounds="[0,200][800,300]" />
</node></hierarchy>"""


def score(name, result, expected=None, os_state=None, apps_init=None, **options):
    return get_metric(name)(result, expected, options, {"os_state": os_state, "apps_init": apps_init})


@pytest.mark.parametrize(
    "name,result,expected,options,want",
    [
        ("exact_match", {"a": [1, 2]}, {"a": [1, 2]}, {}, 1),
        ("exact_match", True, 1, {}, 0),
        ("exact_match", "Wi-Fi", "wi-fi", {}, 0),
        ("exact_match", None, False, {}, 0),
        ("normalized_match", "  WI-FI ", "wi-fi", {}, 1),
        ("normalized_match", "Ｗｉ－Ｆｉ。", "wi-fi", {}, 1),
        ("normalized_match", "Bluetooth", "wi-fi", {}, 0),
        ("normalized_match", None, "x", {}, 0),
        ("answer_match", "There are 3 alarms", 3, {}, 1),
        ("answer_match", "No, it is off", False, {}, 1),
        ("answer_match", "There are 4 alarms", 3, {}, 0),
        ("contains", "Alarm set for 7:30 AM", "7:30 am", {}, 1),
        ("contains", "Alarm set for 7:30 AM", "7:30 AM", {"normalize": False}, 1),
        ("contains", "Alarm set for 7:30 AM", "7:30 am", {"normalize": False}, 0),
        ("contains", ["Home", "Work"], "work", {"normalize": True}, 1),
        ("contains", ["Home", "Work"], "Gym", {}, 0),
        ("contains", 42, "4", {}, 0),
        ("check_include_exclude", "wifi_on=0 bt_on=1", {"include": ["wifi_on=0"], "exclude": ["bt_on=0"]}, {}, 1),
        ("check_include_exclude", "wifi_on=1 bt_on=1", {"include": ["wifi_on=0"]}, {}, 0),
        ("check_include_exclude", "wifi_on=0 bt_on=0", {"include": ["wifi_on=0"], "exclude": ["bt_on=0"]}, {}, 0),
        ("check_include_exclude", None, {"include": ["x"]}, {}, 0),
        ("regex_match", "alarm_17", r"alarm_\d+", {}, 1),
        ("regex_match", "my alarm_17", r"alarm_\d+", {"full": True}, 0),
        ("regex_match", "ALARM_1", r"alarm_\d", {"ignore_case": True}, 1),
        ("regex_match", None, r".*", {}, 0),
        ("number_within", "27.5°C", 27, {"abs_tol": 0.5}, 1),
        ("number_within", "27.6°C", 27, {"abs_tol": 0.5}, 0),
        ("number_within", "about 1,050 steps", 1000, {"rel_tol": 0.05}, 1),
        ("number_within", "三个", 3, {}, 1),
        ("number_within", "between 2 and 4", 3, {"abs_tol": 1}, 0),
        ("number_within", 3, "3", {}, 1),
        ("number_within", True, 1, {}, 0),
        ("time_match", "下午2点半", "14:30", {}, 1),
        ("time_match", "2:33 pm", "14:30", {}, 1),
        ("time_match", "14:40", "14:30", {}, 0),
        ("time_match", "14:40", "14:30", {"tolerance_minutes": 10}, 1),
        ("time_match", None, "14:30", {}, 0),
        ("duration_match", "90 min", "1小时30分", {}, 1),
        ("duration_match", "1:30", "90 minutes", {}, 1),
        ("duration_match", "80 min", "90 minutes", {}, 0),
        ("date_match", "2026-03-17", "2026-03-17", {}, 1),
        ("date_match", "March 17", "2026-03-17", {}, 1),
        ("date_match", "March 18", "2026-03-17", {}, 0),
        ("list_equal", ["a", "b"], ["a", "b"], {}, 1),
        ("list_equal", ["b", "a"], ["a", "b"], {}, 0),
        ("list_equal", ["A ", "b"], ["a", "b"], {"normalize": True}, 1),
        ("list_equal", "ab", ["a", "b"], {}, 0),
        ("set_equal", ["b", "a", "a"], ["a", "b"], {}, 1),
        ("set_equal", ["a"], ["a", "b"], {}, 0),
        ("set_equal", [{"id": 1}, {"id": 2}], [{"id": 2}, {"id": 1}], {}, 1),
        ("includes_all", ["a", "b", "c"], ["c", "a"], {}, 1),
        ("includes_all", ["a", "b"], ["c"], {}, 0),
        ("includes_all", None, ["c"], {}, 0),
        ("length_equal", [1, 2, 3], 3, {}, 1),
        ("length_equal", [1, 2], 3, {}, 0),
        ("length_equal", None, 0, {}, 0),
        ("json_subset", {"a": 1, "b": {"c": 2, "d": 3}}, {"b": {"c": 2}}, {}, 1),
        ("json_subset", {"a": 1}, {"a": 2}, {}, 0),
        ("json_subset", {"a": 1}, {"b": 1}, {}, 0),
        ("json_subset", [{"id": "a", "on": True}, {"id": "b", "on": False}], [{"id": "b"}, {"id": "a", "on": True}], {}, 1),
        ("json_subset", [{"id": "a"}], [{"id": "a"}, {"id": "a"}], {}, 0),
        ("json_subset", [1, 2], [2, 1], {"ordered": True}, 0),
        ("json_subset", [1, 2], [1, 2], {"ordered": True}, 1),
        ("json_subset", None, {"a": 1}, {}, 0),
        ("a11y_exists", TREE, None, {"resource_id": "wifi_switch"}, 1),
        ("a11y_exists", TREE, None, {"resource_id": "com.mobilegym.settings:id/wifi_switch", "class_name": "Switch"}, 1),
        ("a11y_exists", TREE, None, {"text": "wi-fi"}, 1),
        ("a11y_exists", TREE, None, {"text_contains": "bluetooth"}, 1),
        ("a11y_exists", TREE, None, {"content_desc": "Wi-Fi switch", "package": "com.mobilegym.settings"}, 1),
        ("a11y_exists", TREE, None, {"text": "Airplane mode"}, 0),
        ("a11y_exists", None, None, {"text": "Wi-Fi"}, 0),
        ("a11y_has_text", TREE, "Wi-Fi", {"resource_id": "wifi_label"}, 1),
        ("a11y_has_text", TREE, "bluetooth off", {"resource_id": "bt_label"}, 1),
        ("a11y_has_text", TREE, "off", {"resource_id": "bt_label"}, 0),
        ("a11y_has_text", TREE, "off", {"resource_id": "bt_label", "match": "contains"}, 1),
        ("a11y_has_text", TREE, "wi-fi switch", {"resource_id": "wifi_switch"}, 1),
        ("a11y_has_state", TREE, True, {"resource_id": "wifi_switch", "state": "checked"}, 1),
        ("a11y_has_state", TREE, False, {"resource_id": "wifi_switch", "state": "checked"}, 0),
        ("a11y_has_state", TREE, False, {"resource_id": "bt_label", "state": "enabled"}, 1),
        ("a11y_has_state", TREE, True, {"resource_id": "missing", "state": "checked"}, 0),
    ],
)
def test_metric(name, result, expected, options, want):
    assert score(name, result, expected, **options) == want


def test_date_match_uses_the_phone_date_for_relative_words():
    os_state = {"time_ms": 1773651600000}  # 2026-03-16 09:00, a Monday
    assert score("date_match", "tomorrow", "2026-03-17", os_state=os_state) == 1
    assert score("date_match", "明天", "2026-03-17", os_state=os_state) == 1
    assert score("date_match", "tomorrow", "2026-03-18", os_state=os_state) == 0
    assert score("date_match", "tomorrow", "2026-03-17") == 0


def test_brightness_in_range():
    dark = np.zeros((20, 10, 3), np.uint8)
    light = np.full((20, 10, 3), 240, np.uint8)
    assert score("brightness_in_range", dark, max=80) == 1
    assert score("brightness_in_range", light, max=80) == 0
    assert score("brightness_in_range", light, min=200) == 1
    assert score("brightness_in_range", None, max=80) == 0


@pytest.mark.parametrize(
    "name,expected,options,message",
    [
        ("regex_match", "([", {}, "invalid regular expression"),
        ("number_within", "many", {}, "numeric expected"),
        ("check_include_exclude", ["x"], {}, "include"),
        ("list_equal", "ab", {}, "needs a list"),
        ("length_equal", "3", {}, "integer expected"),
        ("a11y_exists", None, {}, "needs a selector"),
        ("a11y_has_state", True, {"state": "pressed", "text": "x"}, "unknown a11y state"),
        ("a11y_has_state", "yes", {"state": "checked", "text": "x"}, "true or false"),
        ("a11y_has_text", "x", {"text_contains": "x"}, None),
        ("a11y_has_text", "x", {"resource_id": "x", "match": "fuzzy"}, "exact"),
    ],
)
def test_task_side_mistakes_raise(name, expected, options, message):
    with pytest.raises((MetricConfigError, TaskError, TypeError)) as info:
        score(name, TREE, expected, **options)
    if message:
        assert message in str(info.value)


def test_matcher_task_errors_propagate():
    with pytest.raises(MetricConfigError, match="not a time of day"):
        score("time_match", "14:30", "teatime")


def test_options_are_checked_against_the_signature():
    assert get_metric("number_within").check_options({"abs_tol": 1}) == []
    problems = get_metric("number_within").check_options({"tolerance": 1})
    assert problems == ["unknown option 'tolerance' for metric 'number_within' (accepts: abs_tol, rel_tol)"]
    assert get_metric("a11y_has_state").check_options({"text": "x"}) == ["metric 'a11y_has_state' needs option 'state'"]
    assert "os_state" not in get_metric("date_match").options
    with pytest.raises(KeyError, match="unknown metric 'nope'"):
        get_metric("nope")


def test_adding_a_metric_is_one_function():
    @metric
    def starts_with_test(result, expected, *, case: bool = True) -> float:
        return float(str(result).startswith(expected))

    try:
        assert get_metric("starts_with_test")("hello", "he", {}) == 1
        assert get_metric("starts_with_test").options == {"case"}
    finally:
        del METRICS["starts_with_test"]


def test_a_metric_must_take_result_and_expected():
    with pytest.raises(TypeError, match="must take"):
        metric(lambda result: 1.0)


def test_out_of_range_score_is_an_error():
    @metric
    def broken_test(result, expected) -> float:
        return 2.0

    try:
        with pytest.raises(MetricConfigError, match="outside"):
            get_metric("broken_test")(1, 1, {})
    finally:
        del METRICS["broken_test"]


def lazy(scores, seen):
    for s in scores:
        seen.append(s)
        yield s


@pytest.mark.parametrize(
    "conj,scores,want,evaluated",
    [
        ("and", [1, 1, 1], 1.0, 3),
        ("and", [1, 0, 1], 0.0, 2),
        ("and", [0, 1, 1], 0.0, 1),
        ("and", [1, 0.5], 0.75, 2),
        ("or", [0, 1, 0], 1.0, 2),
        ("or", [1, 0], 1.0, 1),
        ("or", [0, 0.5, 0.25], 0.5, 3),
        ("or", [0, 0], 0.0, 2),
    ],
)
def test_conjunction_short_circuits(conj, scores, want, evaluated):
    seen: list[float] = []
    assert conjoin(conj, lazy(scores, seen)) == want
    assert len(seen) == evaluated


def test_conjunction_errors():
    with pytest.raises(ValueError, match="conj must be"):
        conjoin("xor", [1])
    with pytest.raises(ValueError, match="at least one"):
        conjoin("and", [])


@pytest.mark.parametrize("name, result, expected, options, want", [
    ("answer_match", "3 or 4", 3, {}, 0),
    ("answer_match", "Four alarms.", 4, {}, 1),
    ("number_within", "47.3 GB of 128 GB", 47.3, {"abs_tol": 0.05}, 1),
    ("number_within", "47.3 or 48.3", 47.3, {"abs_tol": 0.05}, 0),
    ("number_within", "maybe 47.3", 47.3, {"abs_tol": 0.05}, 0),
    ("number_within", "6.1 m/s (about 22 km/h)", 6.1, {}, 1),
    ("time_match", "14:30 or 15:30", "14:30", {}, 0),
    ("time_match", "2-4 PM", "14:00", {}, 1),
    ("date_match", "2026-03-17, 2026-03-18", "2026-03-17", {}, 0),
])
def test_answer_metrics_need_a_committed_answer(name, result, expected, options, want) -> None:
    assert score(name, result, expected, **options) == want


def test_answer_match_fails_a_rival_from_the_apps_data() -> None:
    apps = {"contacts": {"contacts": [{"id": "c1", "company": "Acme"}, {"id": "c2", "company": "Globex"}]}}
    assert score("answer_match", "Acme", "Acme", apps_init=apps) == 1
    assert score("answer_match", "Acme, Globex", "Acme", apps_init=apps) == 0
    assert score("answer_match", "Acme, Globex", "Acme") == 0  # a bare list where one value is asked


# ---------------------------------------------------------------- untrusted regexes and option types

def test_regex_match_runs_in_linear_time_whatever_the_pattern():
    import time

    start = time.perf_counter()
    for pattern, subject, want in [("(a+)+$", "a" * 100_000 + "b", 0), ("(x+x+)+y", "x" * 50_000, 0),
                                   ("^(.*a){20}$", "a" * 20_000, 1), ("(\\w+\\s?)*!", "word " * 10_000, 0)]:
        assert score("regex_match", subject, pattern) == want, pattern
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("pattern", [r"(a)\1", "(?=a)", "(?<=a)b", "(?!x)"])
def test_regex_match_refuses_backreferences_and_lookaround(pattern):
    with pytest.raises(MetricConfigError, match="RE2"):
        score("regex_match", "aa", pattern)


def test_regex_match_on_odd_subjects():
    assert score("regex_match", "a\ud800b", "a.b") == 1  # a lone surrogate does not crash the engine
    assert score("regex_match", "ALARM", "^alarm$", ignore_case=True) == 1
    assert score("regex_match", "x\ny", "x.y") == 0  # as in Python's re: . stops at newlines


def test_option_types_follow_the_annotations():
    assert get_metric("regex_match").check_options({"ignore_case": True, "full": False}) == []
    assert get_metric("number_within").check_options({"abs_tol": 1, "rel_tol": 0.1}) == []
    assert get_metric("a11y_exists").check_options({"resource_id": None, "text": "x"}) == []
    assert get_metric("regex_match").check_options({"full": "true"}) == [
        "option 'full' of metric 'regex_match' must be a boolean, got string 'true'"]
    assert get_metric("brightness_in_range").check_options({"min": [0]}) == [
        "option 'min' of metric 'brightness_in_range' must be a number, got array [0]"]


def test_a_metric_with_unreadable_annotations_still_registers():
    @metric
    def odd_metric(result, expected, *, flavour: "NoSuchType" = None) -> float:  # noqa: F821
        return 1.0

    try:
        assert get_metric("odd_metric").check_options({"flavour": [1, 2]}) == []
    finally:
        del METRICS["odd_metric"]


def test_the_answer_reader_is_bounded_on_adversarial_answers():
    import time

    from mobilegym.judge.answers import MAX_ANSWER_CHARS, read_answer

    start = time.perf_counter()
    for text in ("1%" * 499, "1" * 999, "rain chance " * 80, "1%" * 100_000):
        score("answer_match", text, "14:30")
        score("duration_match", text, "1小时30分")
    assert time.perf_counter() - start < 5.0
    assert read_answer("14:30", "14:30 " + "x" * MAX_ANSWER_CHARS).reason == \
        f"the text is longer than {MAX_ANSWER_CHARS} characters"
    assert read_answer("rain", "30% chance of rain").passed is False  # a chance phrase states no condition
