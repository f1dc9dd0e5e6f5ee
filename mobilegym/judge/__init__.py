"""Tasks and judging.

Shared by every task kind: episodes and their one start (``episode``), the AnswerSheet
(``grounded``), the answer reader (``answers``, ``mentions``, ``matchers``), the verdict
(``result``), the registry and splits. Python tasks live in ``python/`` (task classes, parameters,
validation, BaseApp, their episodes), JSON tasks in ``json/`` (loading, schema, setup actions,
getters, metrics, conjunction), and what both read of the phone's state in ``state/`` (paths,
diff, initial state, side effects, templating).
"""
from mobilegym.judge.answers import Reading, fact_checks, read_answer, rivals_for
from mobilegym.judge.episode import EVAL_MODES, Episode, TaskRef, copy_state
from mobilegym.judge.errors import PathError, TaskError
from mobilegym.judge.inputs import JudgeInput
from mobilegym.judge.matchers import (build_answer_checks, check_alternatives, match_date, match_duration, match_exact,
                                      match_number, match_time, match_value)
from mobilegym.judge.vocabulary import date_match_labels, normalize_text
from mobilegym.judge.python.app import BaseApp
from mobilegym.judge.python.episode import PyEpisode, PyTaskRef
from mobilegym.judge.python.params import unambiguous
from mobilegym.judge.python.tasks import AnswerTask, BaseTask, CriteriaTask
from mobilegym.judge.registry import Registry, default_registry, filter_tasks, register_tasks, resolve_tasks, task_index
from mobilegym.judge.result import Check, JudgeResult, check
from mobilegym.judge.timeutil import now_ms, sim_datetime, sim_today

__all__ = [
    "AnswerTask", "BaseApp", "BaseTask", "Check", "CriteriaTask", "EVAL_MODES", "Episode", "JudgeInput",
    "JudgeResult", "PathError", "PyEpisode", "PyTaskRef", "Reading", "Registry", "TaskError", "TaskRef",
    "build_answer_checks", "check", "check_alternatives", "copy_state", "date_match_labels", "default_registry", "fact_checks",
    "filter_tasks", "match_date", "match_duration", "match_exact", "match_number", "match_time", "match_value",
    "normalize_text", "now_ms", "read_answer", "register_tasks", "resolve_tasks", "rivals_for", "sim_datetime",
    "sim_today", "task_index", "unambiguous",
]
