"""Validation of JSON task files: the JSON Schema, then names, list lengths and safety.

Every problem is reported with the JSON path where it sits (``$.evaluator.func[1]``),
all at once, in a :class:`TaskFileError` that names the file.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from mobilegym.device.apps import app_defaults
from mobilegym.judge.state.diff import parse_pattern
from mobilegym.judge.errors import TaskError
from mobilegym.judge.json.getters import GETTERS
from mobilegym.judge.json.languages import each_language, language_problems, localised_fields
from mobilegym.judge.json.metrics import METRICS
from mobilegym.judge.state.paths import parse_path
from mobilegym.judge.json.setup_actions import SETUP_ACTIONS, check_device_path, check_url, local_file
from mobilegym.judge.json.strict import structure_problems
from mobilegym.judge.python.validation import validate_answer_fields
from mobilegym.judge.state.patch_types import json_type, patch_type_problems
from mobilegym.saferegex import UnsafeRegexError, compile_untrusted

SCHEMA_PATH = Path(__file__).with_name("task_schema.json")
INFEASIBLE = "infeasible"

Problem = tuple[str, str]


class TaskFileError(TaskError):
    """A task file that cannot be used; ``problems`` lists (JSON path, message) pairs."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        lines = "\n".join(f"  {where}: {message}" for where, message in problems)
        super().__init__(f"{source}: {len(problems)} problem{'s' * (len(problems) != 1)}:\n{lines}")


class EntryError(TaskError):
    """evaluator lists that do not line up with func; ``where`` is the JSON path of the culprit."""

    def __init__(self, key: str, detail: str) -> None:
        self.where, self.detail = f"$.evaluator.{key}", detail
        super().__init__(f"{self.where} {detail}")


@lru_cache(maxsize=1)
def task_schema() -> dict[str, Any]:
    """The JSON Schema of task files (mobilegym/judge/task_schema.json)."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(task_schema())


def _explain(error: ValidationError) -> Problem:
    """The most specific (path, message) of a schema error, looking inside anyOf/oneOf."""
    if error.validator == "oneOf" and all(set(s) == {"required"} for s in error.validator_value):
        names = ", ".join(s["required"][0] for s in error.validator_value)
        return error.json_path, f"give exactly one of: {names}"
    inner = [e for e in error.context or () if e.validator != "type"]
    if inner:
        return _explain(best_match(inner))
    return error.json_path, error.message


def schema_problems(doc: Any) -> list[Problem]:
    """Problems found by the JSON Schema, sorted by path."""
    found = {_explain(e) for e in _validator().iter_errors(doc)}
    return sorted(found)


def metric_entries(evaluator: dict[str, Any]) -> list[tuple[str, Any, Any, dict[str, Any]]]:
    """The evaluator as (func, result, expected, options) entries.

    With a single ``func`` the other fields are single values; with a list of funcs,
    ``result`` and, when present, ``expected`` and ``options`` must be lists of the same
    length (``null`` where a metric needs no expected value or options). A mismatch
    raises an EntryError (a TaskError).
    """
    func = evaluator["func"]
    if not isinstance(func, list):
        for key in ("result", "expected", "options"):
            if isinstance(evaluator.get(key), list):
                raise EntryError(key, "is a list but func is a single metric")
        return [(func, evaluator.get("result"), evaluator.get("expected"), evaluator.get("options") or {})]
    n = len(func)
    columns: dict[str, list[Any]] = {"expected": [None] * n, "options": [None] * n}
    for key in ("result", "expected", "options"):
        if key not in evaluator and key != "result":
            continue
        value = evaluator.get(key)
        if not isinstance(value, list):
            raise EntryError(key, f"must be a list of {n} entries, one per func")
        if len(value) != n:
            raise EntryError(key, f"has {len(value)} entries but func has {n}")
        columns[key] = value
    return [(f, r, e, o or {}) for f, r, e, o in zip(func, columns["result"], columns["expected"], columns["options"])]


def _setup_problems(actions: list[dict[str, Any]], where: str, task_dir: Path) -> list[Problem]:
    problems: list[Problem] = []
    for i, action in enumerate(actions):
        here = f"{where}[{i}]"
        if action["type"] not in SETUP_ACTIONS:
            problems.append((f"{here}.type", f"unknown setup action {action['type']!r}; "
                                             f"known: {', '.join(sorted(SETUP_ACTIONS))}"))
            continue
        if action["type"] == "set_state":
            problems += _patch_problems(action["parameters"]["patch"], f"{here}.parameters.patch")
            continue
        if action["type"] != "push_file":
            continue
        params = action["parameters"]
        problems += _safe(check_device_path, params["path"], f"{here}.parameters.path")
        if "url" in params:
            url_problems = _safe(check_url, params["url"], f"{here}.parameters.url")
            if not url_problems and params["url"].startswith("file:"):
                url_problems = _safe(_existing_local, params["url"], f"{here}.parameters.url", task_dir)
            problems += url_problems
    return problems


def _patch_problems(patch: dict[str, Any], where: str) -> list[Problem]:
    """A set_state patch: only ``os`` and ``apps``, and each app's part keeps the JSON types of the
    app's defaults (checked again against the live state when the action runs)."""
    unknown = sorted(set(patch) - {"os", "apps"})
    if unknown:
        return [(where, f"a state patch has only 'os' and 'apps', got {', '.join(map(repr, unknown))}")]
    apps = patch.get("apps", {})
    if not isinstance(apps, dict):
        return [(f"{where}.apps", f"must be an object of app patches, got {json_type(apps)}")]
    problems: list[Problem] = []
    for app_id, part in apps.items():
        try:
            defaults = app_defaults(app_id)
        except Exception:  # an app this installation lacks: checked against the live state at setup
            continue
        problems += [(f"{where}.apps.{path}", message)
                     for path, message in patch_type_problems({app_id: defaults}, {app_id: part})]
    return problems


def _regex_problems(name: str, expected: Any, where: str) -> list[Problem]:
    """regex_match with a literal pattern (one, or one per language): it must compile on the linear-time
    engine (RE2)."""
    if name != "regex_match" or not isinstance(expected, dict) or expected.get("type") != "rule":
        return []
    patterns = ([(f"{where}.by_language.{k}", v) for k, v in expected["by_language"].items()]
                if "by_language" in expected else [(f"{where}.value", expected["value"])])
    problems = []
    for here, pattern in patterns:
        try:
            compile_untrusted(str(pattern))
        except UnsafeRegexError as exc:
            problems.append((here, str(exc)))
    return problems


def _existing_local(url: str, task_dir: Path) -> None:
    if not local_file(url, task_dir).is_file():
        raise TaskError(f"no file {url!r} next to the task")


def _safe(check: Any, value: Any, where: str, *args: Any) -> list[Problem]:
    try:
        check(value, *args)
    except TaskError as exc:
        return [(where, str(exc))]
    return []


def _getter_problems(spec: Any, where: str, answer_fields: int | None) -> list[Problem]:
    if spec is None:
        return []
    if spec["type"] == "answer":
        if answer_fields is None:
            return [(where, "a task that reads the answer must declare answer_fields "
                            "(in grounded mode the agent answers on the AnswerSheet)")]
        if spec.get("field", 0) >= answer_fields:
            return [(f"{where}.field", f"answer field {spec['field']} does not exist ({answer_fields} declared)")]
        return []
    if spec["type"] not in GETTERS:
        return [(f"{where}.type", f"unknown getter {spec['type']!r}; known: {', '.join(sorted(GETTERS))}")]
    if spec["type"] in ("app_state", "os_state"):
        if isinstance(spec["path"], dict):
            return [p for k, path in spec["path"].items() for p in _safe(parse_path, path, f"{where}.path.{k}")]
        return _safe(parse_path, spec["path"], f"{where}.path")
    if spec["type"] == "device_file":
        return _safe(check_device_path, spec["path"], f"{where}.path")
    return []


ANSWER_METRICS = frozenset(name for name, m in METRICS.items() if m.reads_answers)


def _reads_answer(*specs: Any) -> bool:
    return any(isinstance(spec, dict) and spec.get("type") == "answer" for spec in specs)


def _evaluator_problems(evaluator: dict[str, Any], answer_fields: int | None) -> list[Problem]:
    func = evaluator["func"]
    if func == INFEASIBLE:
        return []
    try:
        entries = metric_entries(evaluator)
    except EntryError as exc:
        return [(exc.where, exc.detail)]
    problems: list[Problem] = []
    for i, (name, result, expected, options) in enumerate(entries):
        suffix = f"[{i}]" if isinstance(func, list) else ""
        if name == INFEASIBLE:
            problems.append((f"$.evaluator.func{suffix}", '"infeasible" must be the only func of a task'))
        elif name not in METRICS:
            problems.append((f"$.evaluator.func{suffix}",
                             f"unknown metric {name!r}; known: {', '.join(sorted(METRICS))}"))
        else:
            problems += [(f"$.evaluator.options{suffix}", p) for p in METRICS[name].check_options(options)]
            problems += _regex_problems(name, expected, f"$.evaluator.expected{suffix}")
            if _reads_answer(result, expected) and not METRICS[name].reads_answers:
                problems.append((f"$.evaluator.func{suffix}",
                                 f"metric {name!r} cannot judge an agent's answer (it would pay an answer listing "
                                 f"every candidate); use one of: {', '.join(sorted(ANSWER_METRICS))}"))
        problems += _getter_problems(result, f"$.evaluator.result{suffix}", answer_fields)
        problems += _getter_problems(expected, f"$.evaluator.expected{suffix}", answer_fields)
    return problems


def semantic_problems(doc: dict[str, Any], task_dir: Path, stem: str | None) -> list[Problem]:
    """Problems the schema cannot see: file name, registered names, list lengths, safety."""
    problems: list[Problem] = []
    if stem is not None and doc["id"] != stem:
        problems.append(("$.id", f"id {doc['id']!r} must equal the file name {stem!r}"))
    problems += _setup_problems(doc.get("config", []), "$.config", task_dir)
    problems += _setup_problems(doc["evaluator"].get("postconfig", []), "$.evaluator.postconfig", task_dir)
    mixed = language_problems(doc)
    problems += mixed
    fields = doc.get("answer_fields")
    if fields is not None:
        languages = each_language(doc) if not mixed else ()
        for language in languages:  # the fields as each language's phone shows them
            question, listed = localised_fields(fields, language)
            shown = {"question": question, "fields": listed} if isinstance(fields, dict) else listed
            name = doc["id"] if len(languages) == 1 else f"{doc['id']} ({language})"
            problems += _safe(validate_answer_fields, name, "$.answer_fields", shown, {})
        fields = fields["fields"] if isinstance(fields, dict) else fields
    problems += _evaluator_problems(doc["evaluator"], None if fields is None else len(fields))
    for i, pattern in enumerate(doc.get("expected_changes", [])):
        problems += _safe(parse_pattern, pattern, f"$.expected_changes[{i}]")
    return problems


def validate_task(doc: Any, source: str, task_dir: Path, stem: str | None = None) -> None:
    """Raise TaskFileError listing every problem of a parsed task document."""
    problems = structure_problems(doc)  # non-finite numbers, nesting (a document not read by loads_strict)
    if problems:
        raise TaskFileError(source, problems)
    problems = schema_problems(doc)
    if not problems:
        problems = semantic_problems(doc, task_dir, stem)
    if problems:
        raise TaskFileError(source, problems)
