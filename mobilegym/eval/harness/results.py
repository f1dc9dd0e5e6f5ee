"""The results folder: meta.json, results.jsonl, errors.jsonl, summary.json; resuming a run."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterable, Mapping

from ... import __version__
from .config import CONNECTION_KEYS, ConfigError, EvalConfig, result_options
from .plan import EpisodeSpec
from .summary import summarize

META, RESULTS, ERRORS, SUMMARY = "meta.json", "results.jsonl", "errors.jsonl", "summary.json"


def git_version() -> dict[str, Any]:
    """The commit of the MobileGym checkout in use and whether it has local changes (None outside git)."""
    root = Path(__file__).resolve().parents[3]
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip() != ""
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": dirty}


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines):
                break  # a line cut short when a run was killed: that episode runs again
            raise ConfigError(f"{path} line {number} is not JSON; the results folder is damaged") from None
    return rows


def _write_jsonl(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in rows), encoding="utf-8")


def _agent_identity(agent: Mapping[str, Any]) -> dict[str, Any]:
    """What meta.json says of the agent that decides its answers (not its options, compared apart, nor how it
    reaches its model)."""
    return {k: v for k, v in agent.items() if k not in ("options", "spec") and k not in CONNECTION_KEYS}


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """(key, earlier, now) for each option deciding the rows that differs between two meta.json records: the
    configuration (``agent_options`` key by key) and the agent's identity (``agent.*``: name, version,
    prompt version, model, adapter, ...); connection and execution settings are left out."""
    defaults = result_options(EvalConfig().to_dict())  # an option an older run did not record had its default
    before = {**defaults, **result_options(old.get("config") or {})}
    now = result_options(new.get("config") or {})
    out = []
    for key in sorted(set(before) | set(now)):
        if key == "agent_options":
            a, b = before.get(key, {}), now.get(key, {})
            out += [(f"agent_options.{k}", a.get(k), b.get(k)) for k in sorted(set(a) | set(b))
                    if not _same(a.get(k), b.get(k))]
        elif not _same(before.get(key), now.get(key)):
            out.append((key, before.get(key), now.get(key)))
    a, b = _agent_identity(old.get("agent", {})), _agent_identity(new.get("agent", {}))
    out += [(f"agent.{k}", a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if not _same(a.get(k), b.get(k))]
    return out


class ResultsFolder:
    """Writes one run's results; with ``resume`` or ``rerun_failed`` continues an earlier run of the same
    configuration, skipping its finished episodes (rerunning errored ones with ``rerun_failed``)."""

    def __init__(self, config: EvalConfig, agent_meta: Mapping[str, Any]) -> None:
        self.config = config
        self.root = Path(config.out)
        self.rows: dict[str, dict[str, Any]] = {}
        self._errors: dict[str, dict[str, Any]] = {}
        meta = {"config": config.to_dict(), "agent": dict(agent_meta), "mobilegym_version": __version__,
                "git": git_version(), "python": sys.version.split()[0], "created_by": "mobilegym eval"}
        if config.resume or config.rerun_failed:
            self._continue(meta)
        elif (self.root / RESULTS).exists() or (self.root / META).exists():
            raise ConfigError(f"{self.root} already holds results: pass --resume or --rerun-failed to continue "
                              f"that run, or choose another --out")
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / META).write_text(json.dumps(meta, ensure_ascii=False, indent=1, default=str) + "\n",
                                      encoding="utf-8")
        self._results = (self.root / RESULTS).open("a", encoding="utf-8")
        self._error_log = (self.root / ERRORS).open("a", encoding="utf-8")

    def _continue(self, meta: dict[str, Any]) -> None:
        old_path = self.root / META
        if not old_path.exists():
            raise ConfigError(f"nothing to resume: {old_path} does not exist")
        old = json.loads(old_path.read_text(encoding="utf-8"))
        changed = differences(old, meta)
        if changed and not self.config.force_resume:
            shown = "; ".join(f"{key}: {_short(then)} then, {_short(now)} now" for key, then, now in changed)
            raise ConfigError(f"cannot resume {self.root}: what decides its rows changed ({shown}). Run with the "
                              f"earlier values, choose another --out, or pass --force-resume to continue anyway")
        rows = {r["episode_id"]: r for r in _read_jsonl(self.root / RESULTS)}
        errors = {r["episode_id"]: r for r in _read_jsonl(self.root / ERRORS)}
        if self.config.rerun_failed:
            for episode_id, row in list(rows.items()):
                if row["error_kind"] is not None:
                    del rows[episode_id]
                    errors.pop(episode_id, None)
                    if row.get("trajectory"):
                        shutil.rmtree(self.root / row["trajectory"], ignore_errors=True)
        self.rows = rows
        self._errors = {k: v for k, v in errors.items() if k in rows}
        _write_jsonl(self.root / RESULTS, rows.values())
        _write_jsonl(self.root / ERRORS, self._errors.values())

    def pending(self, plan: list[EpisodeSpec]) -> list[EpisodeSpec]:
        """The episodes of the plan that have no row yet."""
        return [spec for spec in plan if spec.episode_id not in self.rows]

    def add(self, row: dict[str, Any], trace: str | None) -> None:
        """Record a finished episode (flushed at once, so a killed run loses at most this line)."""
        self.rows[row["episode_id"]] = row
        self._results.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
        self._results.flush()
        if row["error_kind"] is not None:
            error = {**row, "traceback": trace}
            self._errors[row["episode_id"]] = error
            self._error_log.write(json.dumps(error, ensure_ascii=False, default=str) + "\n")
            self._error_log.flush()

    def finish(self, plan: list[EpisodeSpec]) -> dict[str, Any]:
        """Rewrite the rows in plan order, write summary.json and return it."""
        self._results.close()
        self._error_log.close()
        order = {spec.episode_id: spec.index for spec in plan}
        ranked = sorted(self.rows.values(), key=lambda r: (order.get(r["episode_id"], len(order)), r["episode_id"]))
        _write_jsonl(self.root / RESULTS, ranked)
        _write_jsonl(self.root / ERRORS, sorted(self._errors.values(), key=lambda r: order.get(r["episode_id"], 0)))
        summary = summarize(ranked)
        (self.root / SUMMARY).write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return summary
