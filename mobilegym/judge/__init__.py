"""Tasks and judging: task classes, the registry, episodes, grounded AnswerSheet evaluation, matchers."""
from .answers import Reading, fact_checks, read_answer, rivals_for
from .app import BaseApp
from .episode import EVAL_MODES, Episode, PyEpisode, PyTaskRef, TaskRef
from .errors import PathError, TaskError
from .inputs import JudgeInput
from .matchers import (build_answer_checks, check_alternatives, date_match_labels, match_date, match_duration,
                       match_exact, match_number, match_time, match_value, normalize_text)
from .params import unambiguous
from .registry import Registry, default_registry, filter_tasks, register_tasks, resolve_tasks, task_index
from .results import JudgeResult
from .tasks import AnswerTask, BaseTask, CriteriaTask
from .timeutil import now_ms, sim_datetime, sim_today

__all__ = [
    "AnswerTask", "BaseApp", "BaseTask", "CriteriaTask", "EVAL_MODES", "Episode", "JudgeInput", "JudgeResult",
    "PathError", "PyEpisode", "PyTaskRef", "Reading", "Registry", "TaskError", "TaskRef", "build_answer_checks",
    "check_alternatives", "date_match_labels", "default_registry", "fact_checks", "filter_tasks", "match_date",
    "match_duration", "match_exact", "match_number", "match_time", "match_value", "normalize_text", "now_ms",
    "read_answer", "register_tasks", "resolve_tasks", "rivals_for", "sim_datetime", "sim_today", "task_index",
    "unambiguous",
]
