"""The judge's records: one Check per verified fact, and the JudgeResult of an episode.

Python and JSON tasks alike report checks as :class:`Check` records (plain dicts with the keys
``field``, ``expected``, ``actual`` and ``passed``, so task code and ``info["judge"]`` read them the
same way); :func:`check` makes one.
"""
from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from typing import Any, TypedDict


class Check(TypedDict):
    """One verified fact: what was looked at, what it should be, what it is, and whether it passed."""

    field: str
    expected: Any
    actual: Any
    passed: bool


def check(field: str, expected: Any, actual: Any, passed: bool) -> Check:
    """One check record."""
    return {"field": field, "expected": expected, "actual": actual, "passed": bool(passed)}


def jsonable(value: Any) -> Any:
    """A JSON-able copy: regexes as "re:<pattern>", dates as ISO text, sets and tuples as lists."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, re.Pattern):
        return f"re:{value.pattern}"
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [jsonable(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return jsonable(value.item())
    return repr(value)


@dataclass
class JudgeResult:
    """Outcome of judging an episode.

    ``success``: every check passed (and the agent did not abort a feasible task).
    ``score``: 1.0 on success, else 0.0. ``progress``: fraction of checks passed.
    ``clean``: nothing changed that the task did not expect (view state included). ``side_effects``:
    each unexpected change as {path, kind, before, after, harmful}; in strict mode (the default) the
    harmful ones are also failing checks. ``error``: a task/judge bug (then score 0, success False);
    None means the verdict is about the agent.
    """

    task_id: str
    success: bool
    score: float
    progress: float
    clean: bool
    checks: list[Check] = field(default_factory=list)
    side_effects: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    eval_path: str = "text"

    @classmethod
    def from_checks(cls, task_id: str, checks: list[Check], side_effects: list[dict[str, Any]],
                    warnings: list[str] | None = None, eval_path: str = "text") -> "JudgeResult":
        """Score a list of validated checks."""
        passed = sum(1 for c in checks if c["passed"])
        success = bool(checks) and passed == len(checks)
        return cls(task_id=task_id, success=success, score=1.0 if success else 0.0,
                   progress=passed / len(checks) if checks else 0.0, clean=not side_effects,
                   checks=checks, side_effects=side_effects, warnings=list(warnings or []), eval_path=eval_path)

    @classmethod
    def from_error(cls, task_id: str, error: str, eval_path: str = "text") -> "JudgeResult":
        """A task/judge bug: never scored as the agent's failure or success."""
        return cls(task_id=task_id, success=False, score=0.0, progress=0.0, clean=True,
                   warnings=[f"task error: {error}"], error=error, eval_path=eval_path)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (for info dicts and logs)."""
        return {"task_id": self.task_id, "success": self.success, "score": self.score,
                "progress": self.progress, "clean": self.clean, "checks": jsonable(self.checks),
                "side_effects": jsonable(self.side_effects), "warnings": list(self.warnings),
                "error": self.error, "eval_path": self.eval_path}
