"""The task registry and resolve_tasks: ids, suites, classes, folders, packages, entry points, filters."""
from __future__ import annotations

import importlib.machinery
import sys
import textwrap
import types
from pathlib import Path

import pytest

from mobilegym.judge import PyTaskRef, Registry, TaskError, TaskRef, default_registry, filter_tasks, resolve_tasks
from mobilegym.judge import registry as registry_module

APP_PY = '''
from mobilegym.judge import BaseApp

NOTES_EDIT_CHANGES = ["notes"]


class Notes(BaseApp):
    def titles(self):
        return [n["title"] for n in self.require(".notes")]
'''

TASKS_PY = '''
from mobilegym.judge import AnswerTask, CriteriaTask

from .app import Notes


class CountNotes(AnswerTask):
    objective, difficulty, capabilities = "query", "L1", ["counting"]
    templates = ["How many notes?"]
    answer = staticmethod(lambda task, apps_init: len(Notes(apps_init["notes"]).titles()))


class PinFirst(CriteriaTask):
    objective, difficulty, capabilities = "operate", "L2", ["toggle"]
    templates = ["Pin the first note"]
    criteria = {".notes[0].pinned": True}


class Draft(CriteriaTask):
    objective, difficulty, capabilities = "operate", "L4", ["editing"]
    note = "editor screen not built yet"
    templates = ["Draft a note"]
    criteria = {".draft": "x"}
'''

DEF_PY = '''
from mobilegym.judge import AnswerTask


class {name}(AnswerTask):
    objective, difficulty, capabilities = "query", "L3", ["reading"]
    templates = ["First title?"]
    answer = ".notes[0].title"
'''


def write_suite(root: Path, name: str = "notes", defs: tuple[str, ...] = ("FirstTitle",), extra: str = "") -> Path:
    suite = root / name
    (suite / "defs").mkdir(parents=True)
    (suite / "app.py").write_text(APP_PY)
    (suite / "tasks.py").write_text(TASKS_PY + textwrap.dedent(extra))
    for d in defs:
        (suite / "defs" / f"{d}.py").write_text(DEF_PY.format(name=d))
    return suite


# --- built-in suites -----------------------------------------------------------------------------

def test_builtin_suites_load_cleanly():
    registry = default_registry()
    assert registry.errors == {}
    suites = {p.name for p in Path(registry_module.__file__).parents[2].joinpath("tasks").iterdir()
              if registry_module.is_suite(p) and p.name not in registry_module.NOT_SUITES}
    assert suites <= set(registry.suites)
    assert "clock.CountAlarms" in registry.refs and "settings.ToggleWifi" in registry.refs
    for ref in registry.refs.values():
        assert ref.id.split(".")[0] in registry.suites


def test_resolve_ids_suites_classes_and_lists():
    [ref] = resolve_tasks("clock.CountAlarms")
    assert isinstance(ref, TaskRef) and ref.id == "clock.CountAlarms"
    clock = resolve_tasks("clock")
    assert len(clock) >= 3 and all(r.id.startswith("clock.") for r in clock)
    assert [r.id for r in resolve_tasks("clock.*")] == [r.id for r in clock]
    both = resolve_tasks(["clock.CountAlarms", "clock", "settings.ToggleWifi", "clock.CountAlarms"])
    assert len(both) == len({r.id for r in both}) == len(clock) + 1 and both[0].id == "clock.CountAlarms"
    assert {r.id for r in resolve_tasks("all")} == {r.id for r in resolve_tasks(None)} >= {r.id for r in both}
    cls = default_registry().refs["clock.CountAlarms"].cls
    assert resolve_tasks(cls)[0].id == "clock.CountAlarms"
    assert resolve_tasks(ref) == [ref]
    assert resolve_tasks("mobilegym.tasks.clock.tasks:CountAlarms")[0].id == "clock.CountAlarms"


def test_unknown_ids_name_close_matches():
    with pytest.raises(TaskError, match=r"unknown task or suite 'clock.CountAlarm'; did you mean clock.CountAlarms"):
        resolve_tasks("clock.CountAlarm")
    with pytest.raises(TaskError, match="did you mean clock.CountAlarms"):
        resolve_tasks("clock.countalarms")
    with pytest.raises(TaskError, match="'nothing_like_it'$"):
        resolve_tasks("nothing_like_it")
    with pytest.raises(TaskError, match="does not exist"):
        resolve_tasks("/no/such/folder")
    with pytest.raises(TaskError, match="cannot read a task"):
        resolve_tasks(42)


def test_filters():
    l1 = resolve_tasks("all", difficulty="L1")
    assert l1 and all(r.metadata["difficulty"] == "L1" for r in l1)
    queries = resolve_tasks(["clock", "settings"], objective=["query", "hybrid"])
    assert queries and all(r.metadata["objective"] in ("query", "hybrid") for r in queries)
    counting = filter_tasks(resolve_tasks("all"), capabilities="counting")
    assert counting and all("counting" in r.metadata["capabilities"] for r in counting)
    assert filter_tasks(resolve_tasks("all"), no_such_key=1) == []
    with pytest.raises(TaskError, match="matches"):
        resolve_tasks("clock", difficulty="L9")


# --- user folders and packages -------------------------------------------------------------------

def test_user_folder_of_suites(tmp_path):
    write_suite(tmp_path)
    ids = [r.id for r in resolve_tasks(str(tmp_path))]
    assert ids == ["notes.CountNotes", "notes.FirstTitle", "notes.PinFirst"]      # the placeholder is left out
    with_placeholder = resolve_tasks(str(tmp_path / "notes"), include_placeholders=True)
    assert "notes.Draft" in [r.id for r in with_placeholder]
    registry = Registry()
    assert registry.add_folder(tmp_path) == ["notes"]
    assert resolve_tasks("notes.Draft", registry=registry)[0].metadata["note"] == "editor screen not built yet"
    assert resolve_tasks("notes", registry=registry, difficulty="L3")[0].id == "notes.FirstTitle"


def test_user_tasks_run(tmp_path):
    from tests.test_judge_fakes import DEFAULTS, FakeDevice

    write_suite(tmp_path)
    defaults = {**DEFAULTS, "apps": {**DEFAULTS["apps"], "notes": {"notes": [{"title": "Milk", "pinned": False}]}}}
    registry = Registry()
    registry.add_folder(tmp_path)
    ep = registry.refs["notes.CountNotes"].start(FakeDevice(defaults), eval_mode="text")
    assert ep.evaluate("1 note").success
    ep = registry.refs["notes.FirstTitle"].start(FakeDevice(defaults), eval_mode="text")
    assert ep.evaluate("Milk").success and ep.max_steps == 45


def test_load_errors_are_kept_apart(tmp_path):
    write_suite(tmp_path, defs=("FirstTitle", "Misnamed"),
                extra='''
                class Broken(AnswerTask):
                    objective, difficulty, capabilities = "query", "L7", ["x"]
                    templates = ["?"]
                    answer = ".x"

                class BadBudget(AnswerTask):
                    objective, difficulty, capabilities = "query", "L2", ["x"]
                    templates = ["?"]
                    answer = ".x"
                    max_steps = 7
                ''')
    (tmp_path / "notes" / "defs" / "Misnamed.py").write_text(DEF_PY.format(name="Other"))
    registry = Registry()
    registry.add_folder(tmp_path)
    assert "notes.CountNotes" in registry.refs and "notes.Broken" not in registry.refs
    assert any("difficulty 'L7'" in e for e in registry.errors.values())
    assert any("exactly the task class of its name" in e for e in registry.errors.values())
    with pytest.raises(TaskError, match="difficulty 'L7'"):
        resolve_tasks(str(tmp_path))
    with pytest.raises(TaskError, match="failed to load"):
        resolve_tasks("notes.Nope", registry=registry)
    with pytest.raises(TaskError, match=r"task 'notes.Broken' failed to load: .*difficulty 'L7'"):
        resolve_tasks("notes.Broken", registry=registry)
    with pytest.raises(TaskError, match=r"task 'notes.BadBudget' failed to load: .*max_steps 7 is not one of"):
        resolve_tasks("notes.BadBudget", registry=registry)


def test_duplicate_suites_are_rejected(tmp_path):
    write_suite(tmp_path / "a")
    write_suite(tmp_path / "b")
    registry = Registry()
    registry.add_folder(tmp_path / "a")
    with pytest.raises(TaskError, match="defined twice"):
        registry.add_folder(tmp_path / "b")


def test_register_tasks_and_entry_points(tmp_path, monkeypatch):
    write_suite(tmp_path / "folder", name="mynotes")
    package_root = tmp_path / "pkgroot"
    write_suite(package_root / "thirdparty_tasks", name="memo")
    (package_root / "thirdparty_tasks" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(package_root))

    class Entry:
        def __init__(self, name, target):
            self.name, self.target = name, target

        def load(self):
            return self.target() if callable(self.target) else self.target

    entries = [Entry("memo", lambda: __import__("thirdparty_tasks")), Entry("broken", lambda: 1 / 0)]
    monkeypatch.setattr(registry_module.importlib.metadata, "entry_points",
                        lambda group: entries if group == "mobilegym.tasks" else [])
    monkeypatch.setattr(registry_module, "_DEFAULT", None)
    registry = default_registry()
    assert "memo.CountNotes" in registry.refs and "clock.CountAlarms" in registry.refs
    assert any("ZeroDivisionError" in e for e in registry.errors.values())
    assert registry_module.register_tasks(tmp_path / "folder") == ["mynotes"]
    assert resolve_tasks("mynotes.PinFirst")[0].id == "mynotes.PinFirst"


def test_json_files_go_through_the_json_loader(tmp_path, monkeypatch):
    loaded = []

    class FakeRef(TaskRef):
        def __init__(self, path):
            self.id, self.metadata = f"{path.parent.name}.{path.stem}", {"difficulty": "L1", "note": None}

        def start(self, device, seed=0, eval_mode="grounded", language="en", params=None):
            raise NotImplementedError

    module = types.ModuleType("fake_json_loader")
    module.__spec__ = importlib.machinery.ModuleSpec("fake_json_loader", None)
    module.load_json_task = lambda path: loaded.append(path) or FakeRef(path)
    monkeypatch.setitem(sys.modules, "fake_json_loader", module)
    monkeypatch.setattr(registry_module, "JSON_LOADER", "fake_json_loader")
    suite = tmp_path / "jsonsuite"
    suite.mkdir()
    (suite / "open_clock.json").write_text("{}")
    assert [r.id for r in resolve_tasks(str(suite / "open_clock.json"))] == ["jsonsuite.open_clock"]
    assert [r.id for r in resolve_tasks(str(tmp_path))] == ["jsonsuite.open_clock"]
    assert len(loaded) == 2
    (suite / "notes.txt").write_text("x")
    with pytest.raises(TaskError, match="must be .json"):
        resolve_tasks(str(suite / "notes.txt"))
    monkeypatch.setattr(registry_module, "JSON_LOADER", "no_such_loader_module")
    with pytest.raises(TaskError, match="need no_such_loader_module"):
        resolve_tasks(str(suite / "open_clock.json"))


def test_pytaskref_for_builtin_classes():
    ref = default_registry().refs["settings.ToggleWifi"]
    assert isinstance(ref, PyTaskRef) and ref.metadata["suite"] == "settings" and ref.metadata["app"] == "settings"


# --- "module:Class" ------------------------------------------------------------------------------

def test_module_class_specs_never_import_modules_outside_registered_suites(tmp_path, monkeypatch):
    marker = tmp_path / "imported"
    (tmp_path / "mg_side_effect_probe.py").write_text(f"open({str(marker)!r}, 'w').write('x')\nclass Task: pass\n")
    (tmp_path / "mg_probe_pkg").mkdir()
    (tmp_path / "mg_probe_pkg" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for spec in ("mg_side_effect_probe:Task", "mg_probe_pkg.sub:Task", "os:system", "mobilegym.cli:main",
                 "subprocess:Popen"):
        with pytest.raises(TaskError, match="imports only modules of registered task suites.*register_tasks"):
            resolve_tasks(spec)
    assert not marker.exists()
    assert "mg_side_effect_probe" not in sys.modules and "mg_probe_pkg" not in sys.modules


def test_module_class_specs_inside_registered_suites(tmp_path, monkeypatch):
    assert resolve_tasks("mobilegym.tasks.clock.tasks:CountAlarms")[0].id == "clock.CountAlarms"
    with pytest.raises(TaskError, match="has no task class 'Nope'"):
        resolve_tasks("mobilegym.tasks.clock.tasks:Nope")
    with pytest.raises(TaskError, match="has no task class 'random'"):
        resolve_tasks("mobilegym.tasks.clock.tasks:random")  # a name in the module, but no task class
    with pytest.raises(TaskError, match="no module 'mobilegym.tasks.clock.nothing'"):
        resolve_tasks("mobilegym.tasks.clock.nothing:X")
    with pytest.raises(TaskError, match="is not 'package.module:TaskClass'"):
        resolve_tasks("a b:c")
    # a user's package becomes resolvable once registered (the explicit opt-in)
    package_root = tmp_path / "pkgroot"
    write_suite(package_root / "optin_tasks", name="memo2")
    (package_root / "optin_tasks" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(package_root))
    registry = Registry()
    with pytest.raises(TaskError, match="imports only modules of registered task suites"):
        resolve_tasks("optin_tasks.memo2.tasks:CountNotes", registry=registry)
    registry.add_package("optin_tasks")
    assert resolve_tasks("optin_tasks.memo2.tasks:CountNotes", registry=registry)[0].id == "memo2.CountNotes"
