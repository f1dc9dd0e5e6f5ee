"""Finding tasks: suites under ``mobilegym.tasks``, user folders and packages, and ``resolve_tasks``.

A suite is a folder with ``tasks.py`` and/or ``defs/<Name>.py`` (Python tasks, next to an ``app.py``
accessor) and/or ``*.json`` task files. Task ids are ``suite.ClassName``. Third-party suites come
from a folder path, or from packages named by the entry-point group ``mobilegym.tasks``.
"""
from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import re
import sys
import types
from pathlib import Path
from typing import Any, Iterable, Mapping

from mobilegym.judge.episode import TaskRef
from mobilegym.judge.python.episode import PyTaskRef
from mobilegym.judge.errors import TaskError
from mobilegym.judge.python.tasks import AnswerTask, BaseTask, CriteriaTask

ENTRY_POINT_GROUP = "mobilegym.tasks"
BUILT_IN_SUITES = "mobilegym.tasks"  # the package of the suites that ship with MobileGym
NOT_SUITES = {"splits", "__pycache__"}
JSON_LOADER = "mobilegym.judge.json.task"
_DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def is_suite(folder: Path) -> bool:
    """A folder holding tasks.py, defs/ or JSON task files."""
    return folder.is_dir() and ((folder / "tasks.py").is_file() or (folder / "defs").is_dir()
                                or any(folder.glob("*.json")))


def _task_classes(module: types.ModuleType) -> list[type[BaseTask]]:
    return [obj for _, obj in inspect.getmembers(module, inspect.isclass)
            if issubclass(obj, BaseTask) and obj not in (BaseTask, CriteriaTask, AnswerTask)
            and obj.__module__ == module.__name__]


def _synthetic_package(root: Path) -> str:
    """Make a folder importable as a package (so suites keep their relative imports)."""
    name = "_mobilegym_ext_" + hashlib.sha1(str(root.resolve()).encode()).hexdigest()[:12]
    if name not in sys.modules:
        module = types.ModuleType(name)
        module.__path__ = [str(root.resolve())]
        sys.modules[name] = module
    return name


def load_json(path: Path) -> TaskRef:
    """Load one JSON task with the declarative-task loader."""
    if importlib.util.find_spec(JSON_LOADER) is None:
        raise TaskError(f"{path}: JSON tasks need {JSON_LOADER}, which is not installed")
    return importlib.import_module(JSON_LOADER).load_json_task(path)


class Registry:
    """Task references by id, grouped by suite, with the load errors kept apart."""

    def __init__(self) -> None:
        self.refs: dict[str, TaskRef] = {}
        self.suites: dict[str, list[str]] = {}
        self.errors: dict[str, str] = {}
        self.packages: set[str] = set()  # importable packages holding registered suites ("module:Class" stays inside)

    def owns_module(self, name: str) -> bool:
        """Whether ``name`` is a module inside a package whose suites this registry loaded."""
        return any(name == p or name.startswith(p + ".") for p in self.packages)

    def add(self, ref: TaskRef, suite: str) -> None:
        """Register one task; a second task with the same id is an error."""
        if ref.id in self.refs and self.refs[ref.id] is not ref:
            raise TaskError(f"duplicate task id {ref.id!r}")
        self.refs[ref.id] = ref
        self.suites.setdefault(suite, [])
        if ref.id not in self.suites[suite]:
            self.suites[suite].append(ref.id)

    def _guard(self, source: str, fn: Any, *args: Any) -> Any:
        """Run a loading step, recording (not raising) its failure."""
        try:
            return fn(*args)
        except Exception as exc:
            self.errors[source] = f"{type(exc).__name__}: {exc}"
            return None

    def add_suite(self, folder: Path, package: str) -> None:
        """Load every task of the suite folder ``folder``, importable as ``package.<folder name>``."""
        suite = folder.name
        if suite in self.suites:
            raise TaskError(f"suite {suite!r} is defined twice (again in {folder})")
        self.suites[suite] = []
        self.packages.add(f"{package}.{suite}")
        modules = [f"{package}.{suite}.tasks"] if (folder / "tasks.py").is_file() else []
        if (folder / "defs").is_dir():
            modules += [f"{package}.{suite}.defs.{p.stem}" for p in sorted((folder / "defs").glob("*.py"))
                        if not p.name.startswith("_")]
        for name in modules:
            module = self._guard(name, importlib.import_module, name)
            if module is None:
                continue
            classes = _task_classes(module)
            if ".defs." in name and [c.__name__ for c in classes] != [name.rsplit(".", 1)[1]]:
                self.errors[name] = f"defs/{name.rsplit('.', 1)[1]}.py must define exactly the task class of its name"
                continue
            for cls in classes:
                ref = self._guard(f"{name}.{cls.__name__}", PyTaskRef, cls)
                if ref is not None:
                    self._guard(ref.id, self.add, ref, suite)
        for path in sorted(folder.glob("*.json")):
            if importlib.util.find_spec(JSON_LOADER) is None:
                break
            ref = self._guard(str(path), load_json, path)
            if ref is not None:
                self._guard(ref.id, self.add, ref, suite)

    def add_folder(self, folder: str | Path, package: str | None = None) -> list[str]:
        """Add a suite folder, or a folder of suites; returns the suite names added."""
        root = Path(folder)
        if not root.is_dir():
            raise TaskError(f"task folder {str(folder)!r} does not exist")
        if is_suite(root):
            self.add_suite(root, package or _synthetic_package(root.parent))
            return [root.name]
        package = package or _synthetic_package(root)
        names = []
        for child in sorted(root.iterdir()):
            if child.name not in NOT_SUITES and not child.name.startswith((".", "_")) and is_suite(child):
                self.add_suite(child, package)
                names.append(child.name)
        return names

    def add_package(self, name: str) -> list[str]:
        """Add the suites of an importable package (a suite itself, or a folder of suites)."""
        module = importlib.import_module(name)
        folders = [Path(p) for p in getattr(module, "__path__", [])]
        if not folders:
            raise TaskError(f"{name!r} is a module, not a package of task suites")
        parent = name.rpartition(".")[0]
        added = []
        for folder in folders:
            if is_suite(folder):
                if not parent:
                    raise TaskError(f"top-level package {name!r} is a suite; put it inside a package")
                self.add_suite(folder, parent)
                added.append(folder.name)
            else:
                added += self.add_folder(folder, name)
        return added

    def suite_refs(self, suite: str) -> list[TaskRef]:
        """The tasks of a suite, by id."""
        return [self.refs[i] for i in sorted(self.suites[suite])]


_DEFAULT: Registry | None = None


def default_registry() -> Registry:
    """The built-in suites plus every entry point of the ``mobilegym.tasks`` group (loaded once)."""
    global _DEFAULT
    if _DEFAULT is None:
        registry = Registry()
        registry.add_package(BUILT_IN_SUITES)
        for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            target = registry._guard(f"entry point {entry.name}", entry.load)
            if isinstance(target, types.ModuleType):
                registry._guard(f"entry point {entry.name}", registry.add_package, target.__name__)
            elif isinstance(target, (str, Path)):
                registry._guard(f"entry point {entry.name}", registry.add_folder, target)
        _DEFAULT = registry
    return _DEFAULT


def register_tasks(source: str | Path) -> list[str]:
    """Add a user task folder (path) or package (dotted name) to the default registry; returns suite names."""
    registry = default_registry()
    if Path(source).exists():
        return registry.add_folder(source)
    return registry.add_package(str(source))


def filter_tasks(refs: Iterable[TaskRef], **criteria: Any) -> list[TaskRef]:
    """Keep the tasks whose metadata match: a value, or any of a list/set; list metadata
    (capabilities) matches when it shares an element."""
    out = []
    for ref in refs:
        keep = True
        for key, wanted in criteria.items():
            if key not in ref.metadata:
                keep = False
                break
            have = ref.metadata[key]
            options = set(wanted) if isinstance(wanted, (list, tuple, set, frozenset)) else {wanted}
            keep = bool(options & set(have)) if isinstance(have, (list, tuple)) else have in options
            if not keep:
                break
        if keep:
            out.append(ref)
    return out


def did_you_mean(spec: str, names: Iterable[str]) -> str:
    """``"; did you mean a, b?"`` naming the known names closest to ``spec`` (case first), or ``""``: the one
    way unknown task ids, suites and filter keys are answered."""
    names = list(names)
    close = difflib.get_close_matches(spec, names, n=5, cutoff=0.5)
    lower = {n.lower(): n for n in names}
    if spec.lower() in lower:
        close.insert(0, lower[spec.lower()])
    return f"; did you mean {', '.join(dict.fromkeys(close))}?" if close else ""


def _not_found(spec: str, registry: Registry) -> TaskError:
    name = spec.rsplit(".", 1)[-1]
    failed = [error for source, error in registry.errors.items() if source.rsplit(".", 1)[-1] == name]
    if failed:  # the task exists but is broken: say why, not "unknown"
        return TaskError(f"task {spec!r} failed to load: {failed[0]}")
    message = f"unknown task or suite {spec!r}" + did_you_mean(spec, list(registry.refs) + list(registry.suites))
    if registry.errors:
        message += f" ({len(registry.errors)} task source(s) failed to load: {', '.join(registry.errors)})"
    return TaskError(message)


def _visible(refs: Iterable[TaskRef], placeholders: bool) -> list[TaskRef]:
    return [r for r in refs if placeholders or not r.metadata.get("note")]


def _resolve_one(spec: Any, registry: Registry, placeholders: bool) -> list[TaskRef]:
    if isinstance(spec, TaskRef):
        return [spec]
    if isinstance(spec, type) and issubclass(spec, BaseTask):
        return [PyTaskRef(spec)]
    if isinstance(spec, Path) or (isinstance(spec, str) and (spec.endswith(".json") or "/" in spec or "\\" in spec)):
        path = Path(spec)
        if path.is_file():
            if path.suffix != ".json":
                raise TaskError(f"{path}: a task file must be .json")
            return [load_json(path)]
        if path.is_dir():
            folder = Registry()
            names = folder.add_folder(path)
            if folder.errors:
                raise TaskError(f"{path}: " + "; ".join(f"{k}: {v}" for k, v in folder.errors.items()))
            return _visible([r for n in names for r in folder.suite_refs(n)], placeholders)
        raise TaskError(f"task path {str(spec)!r} does not exist")
    if not isinstance(spec, str):
        raise TaskError(f"cannot read a task from {spec!r} (give an id, a suite, a class, a path or a list)")
    if spec in registry.refs:
        return [registry.refs[spec]]
    if spec in ("all", "*"):
        return _visible([registry.refs[i] for i in sorted(registry.refs)], placeholders)
    suite = spec[:-2] if spec.endswith(".*") else spec
    if suite in registry.suites:
        return _visible(registry.suite_refs(suite), placeholders)
    if ":" in spec:
        return [_task_class(spec, registry)]
    raise _not_found(spec, registry)


def _task_class(spec: str, registry: Registry) -> TaskRef:
    """The task class "module:Class" names. Only modules of registered suites are imported: a task
    id never imports arbitrary code (add a package first with ``register_tasks``, or pass the class)."""
    module_name, _, attr = spec.partition(":")
    if not _DOTTED.match(module_name) or not attr.isidentifier():
        raise TaskError(f"{spec!r} is not 'package.module:TaskClass'")
    if not registry.owns_module(module_name):
        raise TaskError(f"{spec!r}: 'module:Class' imports only modules of registered task suites, and "
                        f"{module_name!r} is in none; register its package first with "
                        "mobilegym.judge.register_tasks('your_package'), or pass the task class itself")
    try:
        found = importlib.util.find_spec(module_name) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise TaskError(f"{spec!r}: no module {module_name!r}")
    target = getattr(importlib.import_module(module_name), attr, None)
    if not (isinstance(target, type) and issubclass(target, BaseTask)):
        raise TaskError(f"{spec!r}: {module_name} has no task class {attr!r}")
    return PyTaskRef(target)


def resolve_tasks(spec: Any, registry: Registry | None = None, include_placeholders: bool = False,
                  **filters: Any) -> list[TaskRef]:
    """Task references from an id ("clock.CountAlarms"), a suite ("clock"), "all" (or None), a task class,
    "module:Class", a JSON file, a task folder, a TaskRef, or a list of these; then filtered by
    metadata (``difficulty="L1"``, ``objective=["query", "hybrid"]``...). Placeholder tasks
    (with a ``note``) are left out of collections unless ``include_placeholders``."""
    registry = registry or default_registry()
    spec = "all" if spec is None else spec
    items: Iterable[Any] = spec if isinstance(spec, (list, tuple, set, frozenset)) else [spec]
    refs: dict[str, TaskRef] = {}
    for item in items:
        for ref in _resolve_one(item, registry, include_placeholders):
            refs.setdefault(ref.id, ref)
    if not refs:
        raise TaskError(f"no tasks in {spec!r}")
    known = sorted({key for ref in refs.values() for key in ref.metadata})
    for key in filters:
        if key not in known:
            raise TaskError(f"unknown filter key {key!r}{did_you_mean(key, known)} (the tasks' metadata keys: "
                            f"{', '.join(known)})")
    chosen = filter_tasks(refs.values(), **filters) if filters else list(refs.values())
    if not chosen:
        raise TaskError(f"no task of {spec!r} matches {filters}")
    return chosen


def find_task(task_id: str, registry: Registry | None = None) -> TaskRef:
    """The registered task ``task_id``; TaskError naming the closest ids when there is none."""
    registry = registry or default_registry()
    ref = registry.refs.get(task_id)
    if ref is None:
        raise _not_found(task_id, registry)
    return ref


def task_index(registry: Registry | None = None) -> Mapping[str, list[str]]:
    """{suite: [task ids]} of every registered task."""
    registry = registry or default_registry()
    return {suite: sorted(ids) for suite, ids in sorted(registry.suites.items())}
