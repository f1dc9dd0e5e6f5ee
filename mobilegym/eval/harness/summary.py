"""summary.json: success with confidence intervals, progress, failure modes, pass@k, per group."""
from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Iterable, Mapping

GROUPS = ("suite", "difficulty", "objective", "app", "task")
GROUP_KEYS = {"task": "task_id"}  # the row key of a group named otherwise
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (0, 0 for no episodes)."""
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate that at least one of k of n attempts (c of them successes) succeeds."""
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def _rate(rows: list[Mapping[str, Any]], key: str) -> float:
    return round(sum(bool(r[key]) for r in rows) / len(rows), 4) if rows else 0.0


def metrics(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The metrics of a set of rows. Errored episodes (task, agent or model errors) are counted apart
    and left out of every rate: they say nothing of the agent's skill and ``--rerun-failed`` reruns them.
    Without a scored episode the success rate's mean and interval are None (there is no rate, not 0%)."""
    rows = list(rows)
    scored = [r for r in rows if r["error_kind"] is None]
    successes = sum(bool(r["success"]) for r in scored)
    lo, hi = wilson(successes, len(scored))
    errors: dict[str, int] = defaultdict(int)
    for r in rows:
        if r["error_kind"] is not None:
            errors[r["error_kind"]] += 1
    return {
        "episodes": len(rows), "scored": len(scored), "errors": sum(errors.values()), "errors_by_kind": dict(errors),
        "success_rate": ({"mean": round(successes / len(scored), 4), "ci95": [round(lo, 4), round(hi, 4)]}
                         if scored else {"mean": None, "ci95": None}),  # no scored episode: no rate at all
        "progress": round(sum(r["progress"] for r in scored) / len(scored), 4) if scored else 0.0,
        "false_complete_rate": _rate(scored, "false_complete"), "overdue_rate": _rate(scored, "overdue"),
        "side_effect_rate": round(sum(bool(r["side_effects"]) for r in scored) / len(scored), 4) if scored else 0.0,
        "loop_rate": _rate(scored, "loop"),
        "avg_steps": round(sum(r["steps"] for r in scored) / len(scored), 2) if scored else 0.0,
        "pass_at_k": pass_at_ks(scored),
        "tokens": {"prompt": sum(r["tokens"]["prompt"] for r in rows),
                   "completion": sum(r["tokens"]["completion"] for r in rows)},
    }


def pass_at_ks(rows: list[Mapping[str, Any]]) -> dict[str, float]:
    """pass@k for k = 1 .. the fewest repeats of any instance (task, seed, world), averaged over instances."""
    instances: dict[tuple, list[bool]] = defaultdict(list)
    for r in rows:
        instances[(r["task_id"], r["seed"], r["world_seed"])].append(bool(r["success"]))
    if not instances:
        return {}
    most = min(len(v) for v in instances.values())
    return {str(k): round(sum(pass_at_k(len(v), sum(v), k) for v in instances.values()) / len(instances), 4)
            for k in range(1, most + 1)}


def summarize(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The whole summary: overall metrics and the same per suite, difficulty, objective, app and task."""
    rows = list(rows)
    summary = metrics(rows)
    summary["by"] = {}
    for group in GROUPS:
        buckets: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
        for r in rows:
            buckets[str(r.get(GROUP_KEYS.get(group, group)))].append(r)
        summary["by"][group] = {name: metrics(bucket) for name, bucket in sorted(buckets.items())}
    return summary
