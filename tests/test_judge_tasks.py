"""Task classes: validation, parameters, lifecycle, criteria, answers, errors vs failures, side effects."""
from __future__ import annotations

import json
import re

import pytest

from mobilegym.judge import AnswerTask, BaseApp, BaseTask, CriteriaTask, PyTaskRef, TaskError, build_answer_checks
from mobilegym.judge.result import check
from tests.test_judge_fakes import FakeDevice


def start(cls, seed=0, mode="text", device=None, **kw):
    device = device or FakeDevice()
    return PyTaskRef(cls).start(device, seed=seed, eval_mode=mode, **kw), device


class Weather(BaseApp):
    @staticmethod
    def sample_two_cities(rng, state, params):
        names = [c["name"] for c in state["cities"] if c["name"] != params.get("first")]
        return rng.choice(names)


# --- tasks used below (suite "demo") ---------------------------------------------------------------

class ToggleWifi(CriteriaTask):
    """Wi-Fi in the requested state."""
    suite, app = "demo", "settings"
    objective, difficulty, capabilities = "operate", "L1", ["toggle"]
    templates = ["{wifi} Wi-Fi"]
    parameters = {"wifi": {"type": "bool", "values": {"Turn on": True, "Turn off": False}}}
    criteria = {".wifi": "{wifi}"}


class SetFont(CriteriaTask):
    suite, app = "demo", "settings"
    objective, difficulty, capabilities = "operate", "L2", ["selection"]
    templates = ["Font size {size}"]
    parameters = {"size": {"values": {"Small": "small", "Default": "default", "Large": "large"}}}
    criteria = {".font_size": "{size}"}


class SetBrightness(CriteriaTask):
    suite, app = "demo", "settings"
    objective, difficulty, capabilities = "operate", "L2", ["slider"]
    templates = ["Brightness {level}%"]
    parameters = {"level": {"type": "int", "min": 50, "max": 70, "step": 10}}
    criteria = {".brightness": "{level}"}


class EnableGym(CriteriaTask):
    """Array path: set up in inject, not by _invert_criteria."""
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "operate", "L2", ["toggle"]
    templates = ["Turn on the {label} alarm"]
    parameters = {"label": {"default": "Wake up"}}
    criteria = {".alarms[label={label}].enabled": True}


class CountAlarms(AnswerTask):
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "query", "L1", ["counting"]
    templates = ["How many alarms?"]
    answer = (".alarms", len)


class CheckModel(AnswerTask):
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "query", "L1", ["reading"]
    templates = ["Model?"]
    answer = "settings:.about.model"


class AlarmHour(AnswerTask):
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "query", "L1", ["reading"]
    templates = ["When does {label} ring?"]
    parameters = {"label": {"source": ".alarms[*].label"}}
    answer = ".alarms[label={label}].hour"


class CityTemps(AnswerTask):
    suite, app = "demo", "weather"
    objective, difficulty, capabilities = "query", "L2", ["reading"]
    templates = ["High and low in {city}?"]
    parameters = {"city": {"source": ".cities[*].name"}}
    answer = {"high": ".cities[name={city}].high", "low": ".cities[name={city}].low"}


class TotalCities(AnswerTask):
    suite, app = "demo", "weather"
    objective, difficulty, capabilities = "query", "L1", ["counting"]
    templates = ["How many cities and alarms?"]
    answer = staticmethod(lambda task, apps_init: len(apps_init["weather"]["cities"]) + len(apps_init["clock"]["alarms"]))


class HotterCity(AnswerTask):
    suite, app = "demo", "weather"
    objective, difficulty, capabilities = "query", "L2", ["comparison"]
    templates = ["Tied?"]
    answer = re.compile(r"same|tied|一样")


class MissingData(AnswerTask):
    suite, app = "demo", "clock"
    objective, difficulty, capabilities = "query", "L1", ["reading"]
    templates = ["Broken"]
    answer = ".alarms[label=Nope].hour"


class Multi(BaseTask):
    """Every parameter kind."""
    suite, app = "demo", "weather"
    objective, difficulty, capabilities = "operate", "L3", ["misc"]
    templates = ["{mode} {flag} {n} {x} {word} {city.name} {second}", "variant {n}"]
    parameters = {
        "mode": {"type": "enum", "values": ["fast", "slow"]},
        "flag": {"type": "bool"},
        "n": {"type": "int", "min": 1, "max": 1000},
        "x": {"type": "float", "min": 0.5, "max": 1.5, "step": 0.25},
        "word": {"type": "string", "default": "hello"},
        "city": {"source": ".cities", "fields": ["name", "high"]},
        "first": {"default": "Beijing"},
        "second": {"sampler": Weather.sample_two_cities},
    }

    def check_goals(self, input):
        return [check("x", 1, 1, True)]


class Recorder(CriteriaTask):
    suite, app = "demo", "settings"
    objective, difficulty, capabilities = "operate", "L1", ["toggle"]
    templates = ["Bluetooth {bt}"]
    parameters = {"bt": {"type": "bool"}}
    criteria = {".bluetooth": "{bt}"}
    events: list = []

    def set_up(self, device):
        Recorder.events.append(("set_up", dict(self.params), [c[0] for c in device.calls]))

    def inject(self, device):
        Recorder.events.append(("inject", dict(self.params)))

    def _invert_criteria(self, device):
        Recorder.events.append(("invert",))
        super()._invert_criteria(device)


# --- validation ----------------------------------------------------------------------------------

def make(base=CriteriaTask, **attrs):
    body = {"suite": "demo", "app": "settings", "objective": "operate", "difficulty": "L1",
            "capabilities": ["toggle"], "templates": ["Do it"], "criteria": {".wifi": False}}
    if base is AnswerTask:
        body.update(objective="query", answer=".wifi")
        body.pop("criteria")
    body.update(attrs)
    return type("Made", (base,), body)


@pytest.mark.parametrize("attrs, message", [
    ({"objective": None}, "objective None"),
    ({"objective": "browse"}, "objective 'browse'"),
    ({"difficulty": "L5"}, "difficulty 'L5'"),
    ({"scope": "global"}, "scope"),
    ({"composition": "random"}, "composition"),
    ({"capabilities": []}, "capabilities"),
    ({"capabilities": ["a", "b", "c", "d", "e"]}, "capabilities"),
    ({"max_steps": 20}, "max_steps 20"),
    ({"note": ""}, "note"),
    ({"templates": []}, "templates"),
    ({"templates": "Do it"}, "templates"),
    ({"templates": ["Set {level}"]}, "no parameter 'level'"),
    ({"criteria": {}}, "criteria must be a non-empty"),
    ({"criteria": {".wifi": "{nope}"}}, "no parameter 'nope'"),
    ({"criteria": {".alarms[": True}}, "unclosed"),
    ({"objective": "query"}, "CriteriaTask changes state"),
    ({"criteria": property(lambda self: {".wifi": True})}, "class variable"),
    ({"answer_fields": [{"type": "slider", "label": "x"}]}, "type 'slider'"),
    ({"answer_fields": [{"type": "choice", "label": "x"}]}, "needs non-empty 'options'"),
    ({"answer_fields": [{"type": "text"}]}, "label"),
    ({"answer_fields": [{"type": "text", "label": "x", "compare": "set"}]}, "only applies to repeatable"),
    ({"answer_fields": [{"type": "text", "label": "x", "matcher": "fuzzy"}]}, "matcher 'fuzzy'"),
    ({"answer_fields": [{"type": "text", "label": "x", "colour": "red"}]}, "unknown keys"),
    ({"answer_fields": {"question": "Q?"}}, "'question' and 'fields'"),
    ({"answer_fields": []}, "non-empty list"),
    ({"parameters": {"a": {"type": "int"}}}, "no domain"),
    ({"parameters": {"a": {"type": "int", "min": 5, "max": 1}}}, "above max"),
    ({"parameters": {"a": {"type": "int", "min": 1}}}, "both 'min' and 'max'"),
    ({"parameters": {"a": {"values": [1, 2], "default": 1}}}, "'default' fixes the value"),
    ({"parameters": {"a": {"values": [1], "source": ".x"}}}, "one domain"),
    ({"parameters": {"a": {"type": "bool", "values": {"on": 1}}}}, "type bool"),
    ({"parameters": {"a": {"values": []}}}, "non-empty"),
    ({"parameters": {"a": {"type": "int", "default": "3"}}}, "not of type int"),
    ({"parameters": {"a": {"fields": ["x"], "default": 1}}}, "needs a 'source' or 'sampler'"),
    ({"parameters": {"a": {"sampler": "sample_x"}}}, "callable"),
    ({"parameters": {"a": {"kind": "int"}}}, "unknown keys"),
    ({"parameters": {"a": {"type": "decimal", "default": 1}}}, "type 'decimal'"),
    ({"parameters": {"a": {"type": "string", "values": ["x"], "min": 1, "max": 2}}}, "one domain"),
    ({"scope": "cross-app"}, "must name the two or more apps"),
    ({"scope": "cross-app", "related_apps": ["settings", "settings"]}, "must name the two or more apps"),
    ({"related_apps": ["settings", "clock"]}, "scope is 'single-app'"),
    ({"related_apps": "settings"}, "related_apps must list app ids"),
])
def test_registration_rejects_bad_tasks(attrs, message):
    with pytest.raises(TaskError, match=re.escape(message)):
        PyTaskRef(make(**attrs))


def test_answer_task_rules():
    with pytest.raises(TaskError, match="not operate"):
        PyTaskRef(make(AnswerTask, objective="operate"))
    with pytest.raises(TaskError, match="declare `answer`"):
        PyTaskRef(make(AnswerTask, answer=None))
    PyTaskRef(make(AnswerTask, answer=None, get_answer=lambda self, input: 1))


def test_tasks_inherit_a_standard_base_directly():
    child = type("Child", (ToggleWifi,), {"suite": "demo"})
    with pytest.raises(TaskError, match="inherits exactly one"):
        PyTaskRef(child)
    with pytest.raises(TaskError, match="not a task class"):
        PyTaskRef(CriteriaTask)


def test_metadata_and_step_budget():
    ref = PyTaskRef(SetFont)
    assert ref.id == "demo.SetFont"
    meta = ref.metadata
    assert meta["max_steps"] == 30 and meta["objective"] == "operate" and meta["base"] == "CriteriaTask"
    assert meta["scope"] == "single-app" and meta["composition"] == "atomic" and meta["kind"] == "python"
    assert meta["related_apps"] == [meta["app"]]
    cross = PyTaskRef(make(scope="cross-app", related_apps=["settings", "clock"])).metadata
    assert cross["related_apps"] == ["settings", "clock"]
    json.dumps(meta)
    assert {d: make(difficulty=d).step_budget() for d in ("L1", "L2", "L3", "L4")} == {"L1": 15, "L2": 30, "L3": 45, "L4": 60}
    assert make(difficulty="L1", max_steps=60).step_budget() == 60


# --- parameters and sampling ---------------------------------------------------------------------

def test_every_parameter_kind_samples_in_its_domain():
    seen_n, seen_flag = set(), set()
    for seed in range(30):
        ep, _ = start(Multi, seed=seed)
        p = ep.params
        assert p["mode"] in ("fast", "slow") and isinstance(p["flag"], bool)
        assert 1 <= p["n"] <= 1000 and isinstance(p["n"], int)
        assert p["x"] in (0.5, 0.75, 1.0, 1.25, 1.5)
        assert p["word"] == "hello" and p["first"] == "Beijing"
        assert p["city"] in ({"name": "Beijing", "high": 23}, {"name": "Shanghai", "high": 26})
        assert p["second"] == "Shanghai"                      # the sampler saw the earlier parameters
        seen_n.add(p["n"])
        seen_flag.add(p["flag"])
        json.dumps(p)
    assert len(seen_n) > 20 and seen_flag == {True, False}


def test_sampling_is_deterministic_per_seed():
    a, _ = start(Multi, seed=11)
    b, _ = start(Multi, seed=11)
    assert (a.params, a.instruction) == (b.params, b.instruction)
    instructions = {start(Multi, seed=s)[0].instruction for s in range(20)}
    assert len(instructions) > 10
    assert any(i.startswith("variant") for i in instructions) and any(not i.startswith("variant") for i in instructions)


def test_templates_render_display_labels_and_fields():
    ep, _ = start(ToggleWifi, seed=0)
    assert ep.instruction in ("Turn on Wi-Fi", "Turn off Wi-Fi")
    assert ep.instruction == ("Turn on Wi-Fi" if ep.params["wifi"] else "Turn off Wi-Fi")
    ep, _ = start(Multi, seed=3, params={"city": {"name": "Shanghai", "high": 26}, "n": 7})
    if not ep.instruction.startswith("variant"):
        assert "Shanghai" in ep.instruction and " 7 " in ep.instruction


def test_parameter_overrides():
    ep, _ = start(ToggleWifi, params={"wifi": False})
    assert ep.params == {"wifi": False} and ep.instruction == "Turn off Wi-Fi"
    ep, _ = start(SetFont, params={"size": "Large"})             # a display label works too
    assert ep.params == {"size": "large"}
    with pytest.raises(TaskError, match="not in its domain"):
        start(SetFont, params={"size": "huge"})
    with pytest.raises(TaskError, match="outside"):
        start(SetBrightness, params={"level": 99})
    with pytest.raises(TaskError, match="no parameters named"):
        start(SetFont, params={"colour": "red"})


def test_source_parameter_errors_are_task_errors():
    bad = make(parameters={"a": {"source": ".missing[*].x"}}, templates=["{a}"])
    with pytest.raises(TaskError, match="parameter 'a': path '.missing.*no key 'missing'"):
        start(bad)
    empty = make(parameters={"a": {"source": ".about.missing_list[*]"}}, templates=["{a}"])
    with pytest.raises(TaskError, match="parameter 'a'"):
        start(empty)
    containers = make(parameters={"a": {"source": ".about"}}, templates=["{a}"])
    with pytest.raises(TaskError):
        start(containers)


def test_language_variants():
    cls = make(templates={"en": ["Turn off Wi-Fi"], "zh": ["关闭 Wi-Fi"]})
    assert start(cls, language="zh")[0].instruction == "关闭 Wi-Fi"
    assert start(cls, language="en")[0].instruction == "Turn off Wi-Fi"
    with pytest.raises(TaskError, match="no templates for language 'fr'"):
        start(cls, language="fr")


def test_bad_eval_mode():
    with pytest.raises(ValueError, match="eval_mode"):
        start(ToggleWifi, mode="vibes")


# --- lifecycle -----------------------------------------------------------------------------------

def test_lifecycle_order():
    Recorder.events.clear()
    ep, device = start(Recorder, seed=4)
    kinds = [e[0] for e in Recorder.events]
    assert kinds == ["set_up", "inject", "invert"]
    assert Recorder.events[0][1] == {} and Recorder.events[0][2] == ["reset_state"]   # reset, then set_up, then sampling
    assert Recorder.events[1][1] == ep.params
    assert device.calls[0] == ("reset_state", 4)


def test_the_hooks_former_names_still_run_and_warn():
    with pytest.warns(DeprecationWarning, match=r"OldStyle\._post_sample is deprecated: name the hook inject"):
        class OldStyle(CriteriaTask):
            suite, app = "demo", "settings"
            objective, difficulty, capabilities = "operate", "L1", ["toggle"]
            templates = ["Bluetooth {bt}"]
            parameters = {"bt": {"type": "bool"}}
            criteria = {".bluetooth": "{bt}"}
            ran: list = []

            def _prepare(self, device):
                OldStyle.ran.append("set_up")

            def _post_sample(self, device):
                OldStyle.ran.append("inject")

    start(OldStyle, seed=1)
    assert OldStyle.ran == ["set_up", "inject"]


@pytest.mark.parametrize("cls, field", [(ToggleWifi, "wifi"), (SetFont, "font_size"), (SetBrightness, "brightness")])
def test_invert_criteria_never_starts_at_the_target(cls, field):
    for seed in range(12):
        ep, device = start(cls, seed=seed)
        target = ep.evaluate().checks[0]["expected"]
        assert device.app("settings")[field] != target
        assert ep.evaluate().success is False


def test_invert_criteria_respects_domains():
    for seed in range(10):
        ep, device = start(SetFont, seed=seed, params={"size": "default"})
        assert device.app("settings")["font_size"] in ("small", "large")
        ep, device = start(SetBrightness, seed=seed, params={"level": 60})
        assert device.app("settings")["brightness"] in (50, 70)


def test_array_criteria_already_met_is_a_task_error():
    with pytest.raises(TaskError, match="inject"):
        start(EnableGym)


def test_initial_state_meeting_every_criterion_is_a_task_error():
    class AlreadyDone(CriteriaTask):
        suite, app = "demo", "settings"
        objective, difficulty, capabilities = "operate", "L1", ["x"]
        templates = ["noop"]
        criteria = {".about.model": "MG-1 Pro"}

    with pytest.raises(TaskError, match="no other value"):
        start(AlreadyDone)


def test_setup_exceptions_become_task_errors():
    class Broken(CriteriaTask):
        suite, app = "demo", "settings"
        objective, difficulty, capabilities = "operate", "L1", ["x"]
        templates = ["x"]
        criteria = {".wifi": False}

        def set_up(self, device):
            raise KeyError("fixture")

    with pytest.raises(TaskError, match="set-up failed: KeyError"):
        start(Broken)


# --- criteria ------------------------------------------------------------------------------------

def test_criteria_pass_and_fail():
    ep, device = start(ToggleWifi, params={"wifi": False})
    result = ep.evaluate(last_action="complete")
    assert not result.success and result.error is None and result.score == 0.0
    assert result.checks == [{"field": ".wifi", "expected": False, "actual": True, "passed": False}]
    device.app("settings")["wifi"] = False
    result = ep.evaluate(last_action="complete")
    assert result.success and result.score == 1.0 and result.progress == 1.0 and result.clean


def test_criteria_none_means_absent_and_bools_are_strict():
    class DeleteGym(CriteriaTask):
        suite, app = "demo", "clock"
        objective, difficulty, capabilities = "operate", "L1", ["delete"]
        templates = ["Delete Gym"]
        criteria = {".alarms[label=Gym]": None}
        expected_changes = ["alarms"]

    ep, device = start(DeleteGym)
    assert not ep.goal_reached()
    device.app("clock")["alarms"] = [a for a in device.app("clock")["alarms"] if a["label"] != "Gym"]
    assert ep.goal_reached() and ep.evaluate().clean
    ep, device = start(ToggleWifi, params={"wifi": True})
    device.app("settings")["wifi"] = 1
    assert not ep.goal_reached()


def test_goal_reached_and_progress():
    class Two(CriteriaTask):
        suite, app = "demo", "settings"
        objective, difficulty, capabilities = "operate", "L2", ["toggle"]
        templates = ["Dark mode on, brightness 80"]
        criteria = {".dark_mode": True, ".brightness": 80}

    ep, device = start(Two)
    assert ep.progress() == 0.0 and not ep.goal_reached()
    device.app("settings")["dark_mode"] = True
    assert ep.progress() == 0.5 and not ep.goal_reached()
    device.app("settings")["brightness"] = 80
    assert ep.progress() == 1.0 and ep.goal_reached()


# --- answers -------------------------------------------------------------------------------------

@pytest.mark.parametrize("cls, good, bad", [
    (CountAlarms, "There are 3 alarms", "4"),
    (CheckModel, "It's an MG-1 Pro", "MG-2"),
    (TotalCities, "5 in total", "6"),
    (HotterCity, "They're the same", "Beijing"),
])
def test_answer_forms(cls, good, bad):
    ep, _ = start(cls)
    assert ep.evaluate(good, "complete").success
    wrong = ep.evaluate(bad, "complete")
    assert not wrong.success and wrong.error is None
    missing = ep.evaluate(None, "complete")
    assert not missing.success and missing.error is None


def test_answer_path_with_parameter_and_dict_slots():
    ep, _ = start(AlarmHour, params={"label": "Medicine"})
    assert ep.evaluate("22").success and not ep.evaluate("6").success
    ep, _ = start(CityTemps, params={"city": "Shanghai"})
    result = ep.evaluate("high 26, low 19")
    assert result.success and [c["field"] for c in result.checks] == ["high", "low"]
    assert ep.evaluate("high 26").progress == 0.5


def test_declarative_answer_reads_the_initial_state():
    ep, device = start(CountAlarms, side_effects="warn")  # the deletion below is only reported
    device.app("clock")["alarms"].pop()              # the agent deletes an alarm
    assert ep.evaluate("3").success and not ep.evaluate("2").success
    result = ep.evaluate("3")
    assert not result.clean and result.side_effects[0]["kind"] == "removed"


def test_missing_environment_data_is_a_task_error_not_a_failure():
    ep, _ = start(MissingData)
    result = ep.evaluate("7", "complete")
    assert result.error is not None and "Nope" in result.error
    assert result.score == 0.0 and not result.success and result.checks == []
    assert "task error" in result.warnings[0]
    assert not ep.goal_reached() and ep.progress() == 0.0


def test_custom_check_goals_bugs_are_task_errors():
    def task_with(checks):
        return make(BaseTask, objective="operate", check_goals=lambda self, input: checks)

    for checks, message in [([{"field": "x", "expected": 1, "actual": 1}], "lacks ['passed']"),
                            ([], "no checks"), ({"field": "x"}, "must return a list"),
                            ([{"field": "x", "expected": 1, "actual": 1, "passed": "yes"}], "must be a bool"),
                            (["x"], "not a dict")]:
        ep, _ = start(task_with(checks))
        assert message in ep.evaluate("x").error

    raising = make(BaseTask, objective="operate", check_goals=lambda self, input: input.apps["nope"])
    result = start(raising)[0].evaluate()
    assert result.error.startswith("KeyError") and result.score == 0.0


def test_abort_on_a_feasible_task_scores_zero():
    ep, device = start(ToggleWifi, params={"wifi": False})
    device.app("settings")["wifi"] = False
    result = ep.evaluate(last_action="abort")
    assert not result.success and result.score == 0.0 and result.error is None
    assert result.checks[-1]["field"] == "agent_action" and "aborted" in result.warnings[0]
    assert ep.evaluate(last_action="complete").success


def test_hybrid_task_with_app_accessor():
    class Hybrid(BaseTask):
        suite, app = "demo", "settings"
        objective, difficulty, capabilities = "hybrid", "L2", ["toggle", "reading"]
        templates = ["Dark mode on and tell me the storage used"]
        expected_changes = ["dark_mode"]

        def check_goals(self, input):
            app = BaseApp(input.apps["settings"], init=input.apps_init["settings"])
            return [app.check_value("dark_mode", ".dark_mode", True),
                    *build_answer_checks(app.initial(".about.storage_used_gb"), input.answer)]

    ep, device = start(Hybrid)
    assert ep.evaluate("47.3 GB").progress == 0.5
    device.app("settings")["dark_mode"] = True
    assert ep.evaluate("47.3 GB").success and ep.evaluate("47.3 GB").clean


def test_result_is_json_able():
    ep, _ = start(HotterCity)
    payload = json.loads(json.dumps(ep.evaluate("same").to_dict()))
    assert payload["checks"][0]["expected"] == "re:same|tied|一样" and payload["success"] is True
    assert set(payload) >= {"success", "clean", "progress", "score", "checks", "side_effects", "warnings", "error"}


# --- side effects --------------------------------------------------------------------------------

def test_side_effects_in_warn_mode_are_reported_but_do_not_fail_the_task():
    ep, device = start(ToggleWifi, params={"wifi": False}, side_effects="warn")
    device.app("settings")["wifi"] = False
    device.app("settings")["bluetooth"] = True
    device.doc["os"]["time_ms"] += 60_000           # volatile
    device.doc["os"]["route"] = "/network"          # volatile
    device.app("answer_sheet")["submitted"] = True  # always ignored
    result = ep.evaluate(last_action="complete")
    assert result.success and not result.clean
    assert result.side_effects == [{"path": "apps.settings.bluetooth", "kind": "changed", "before": False, "after": True,
                                    "harmful": True}]
    assert result.warnings == ["harmful side effect (not scored, side_effects='warn'): apps.settings.bluetooth changed"]


def test_expected_changes_with_filters_and_wildcards():
    def task(changes):
        return make(app="clock", criteria={".alarms[id=a2].enabled": True}, expected_changes=changes)

    def effects(changes, mutate):
        ep, device = start(task(changes))
        mutate(device.app("clock"))
        return [e["path"] for e in ep.evaluate().side_effects]

    def relabel(clock):
        clock["alarms"][0]["label"] = "Rise"

    assert effects([], relabel) == ["apps.clock.alarms[id=a1].label"]
    assert effects(["alarms"], relabel) == []
    assert effects(["clock.alarms"], relabel) == []
    assert effects(["alarms[*].label"], relabel) == []
    assert effects(["alarms[id=a1]"], relabel) == []
    assert effects(["alarms[label=Wake]"], relabel) == ["apps.clock.alarms[id=a1].label"]  # exact values only
    assert effects(["alarms[id=a2]"], relabel) == ["apps.clock.alarms[id=a1].label"]
    assert effects(["alarms[*].enabled"], relabel) == ["apps.clock.alarms[id=a1].label"]
    assert effects(["*"], relabel) == []
    assert effects([], lambda c: c["alarms"].reverse()) == ["apps.clock.alarms"]
    assert effects([], lambda c: c["alarms"].append({"id": "a9", "label": "New"})) == ["apps.clock.alarms[id=a9]"]
