"""``mobilegym eval``: the command line over :func:`mobilegym.eval.harness.evaluate`."""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from ...languages import LANGUAGES
from .config import BACKENDS, EXECUTION_KEYS, PROGRESS, SPLITS, ConfigError, EvalConfig, PreflightError


def _key_value(text: str) -> tuple[str, Any]:
    """KEY=VALUE with VALUE read as JSON when it parses (numbers, true, lists), else as a string."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _seed_list(text: str) -> list[int]:
    """World seeds: "1000000-1000099" (inclusive), "3,5,8", or a mix "1-3,10"."""
    seeds: list[int] = []
    try:
        for part in text.split(","):
            lo, sep, hi = part.strip().partition("-")
            first, last = int(lo), int(hi) if sep else int(lo)
            if first < 0 or last < first or last - first > 1_000_000:
                raise ValueError
            seeds.extend(range(first, last + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of world seeds such as 1000000-1000099 or 3,5,8") \
            from None
    return seeds


def _screen_size(text: str) -> tuple[int, int]:
    width, sep, height = text.lower().partition("x")
    try:
        size = (int(width), int(height))
    except ValueError:
        size = (0, 0)
    if not sep or not all(200 <= v <= 4096 for v in size):
        raise argparse.ArgumentTypeError(f"{text!r} is not a screen size WIDTHxHEIGHT with sides in [200, 4096]")
    return size


def add_eval_parser(sub: Any, number: Any) -> None:
    """The ``eval`` subcommand; ``number(kind, lo, hi, lo_open)`` makes bounded argparse number types."""
    p = sub.add_parser("eval", help="evaluate an agent over tasks, seeds and worlds; write a results folder",
                       description="Evaluate an agent and write meta.json, results.jsonl, summary.json, "
                                   "trajectories/ and report.html to --out.")
    what = p.add_argument_group("episodes")
    what.add_argument("--split", choices=SPLITS, help="the tasks of a manifest in tasks/splits/")
    what.add_argument("--suite", action="append", default=[], help="the tasks of a suite (repeatable)")
    what.add_argument("--task", action="append", default=[], help="a task id or JSON task path (repeatable)")
    what.add_argument("--filter", action="append", default=[], type=_key_value, metavar="KEY=VALUE",
                      help="keep tasks whose metadata KEY is VALUE (a comma list means any of them), e.g. "
                           "difficulty=L1,L2 (repeatable)")
    what.add_argument("--seed", type=number(int, 0, 2**31 - 2), default=0, help="the first reset seed (default 0)")
    what.add_argument("--sample-n", type=number(int, 1, 1_000_000), default=1,
                      help="parameter instances per task: reset seeds SEED..SEED+N-1 (default 1)")
    what.add_argument("--repeat-n", type=number(int, 1, 1000), default=1,
                      help="runs of each instance, for pass@k (default 1)")
    what.add_argument("--world-seeds", type=_seed_list, help="the phones to play on, e.g. 1000000-1000099 "
                                                              "(default: the world each reset seed implies)")
    agent = p.add_argument_group("agent")
    agent.add_argument("--agent", default="oracle", help="oracle, random, human, openai or package.module:Class")
    agent.add_argument("--agent-arg", action="append", default=[], type=_key_value, metavar="KEY=VALUE",
                       help="a keyword argument of the agent (repeatable), e.g. model=qwen2.5-vl-7b")
    phone = p.add_argument_group("phone")
    phone.add_argument("--mode", choices=("grounded", "text"), default="grounded", help="evaluation mode")
    phone.add_argument("--language", choices=tuple(LANGUAGES), default="en")
    phone.add_argument("--world", choices=("generated", "canonical"), default="generated")
    phone.add_argument("--shuffle-launcher", action="store_true", help="randomise home-screen icons per seed")
    phone.add_argument("--side-effects", choices=("strict", "warn"), default="strict")
    phone.add_argument("--screen-size", type=_screen_size, default=(1080, 2400), metavar="WxH")
    phone.add_argument("--render-scale", type=number(float, 0, 1, True), default=1.0,
                       help="screenshot scale the agent sees, in (0, 1]")
    budget = p.add_argument_group("budgets")
    budget.add_argument("--max-steps", type=number(int, 1, 10_000), help="step budget (default: each task's)")
    budget.add_argument("--time-limit", type=number(float, 0, 1e6, True), help="seconds per episode")
    budget.add_argument("--loop-limit", type=number(int, 0, 1000), default=5,
                        help="end an episode after this many identical actions on an unchanged screen (0: never)")
    budget.add_argument("--unreadable-limit", type=number(int, 0, 1000), default=3,
                        help="end an episode after this many model replies in a row that name no action (0: never)")
    run = p.add_argument_group("running")
    run.add_argument("--out", default="eval_results", help="the results folder (default eval_results)")
    run.add_argument("--resume", action="store_true",
                     help="continue the run in --out, skipping finished episodes; options not given are the run's")
    run.add_argument("--rerun-failed", action="store_true", help="continue the run in --out, rerunning errored ones")
    run.add_argument("--force-resume", action="store_true",
                     help="resume even if options that decide the rows (tasks, seeds, agent, prompts, model) changed")
    run.add_argument("--workers", type=number(int, 1, 256), default=1, help="worker processes (default 1)")
    run.add_argument("--concurrency", type=number(int, 1, 1024), default=1,
                     help="episodes in flight per worker (model calls overlap; default 1)")
    run.add_argument("--backend", choices=BACKENDS, default="local")
    run.add_argument("--address", dest="ray_address", help="the Ray cluster (with --backend ray), e.g. auto")
    run.add_argument("--no-trajectories", dest="trajectories", action="store_false",
                     help="do not write per-step screenshots and trees")
    run.add_argument("--trajectory-scale", type=number(float, 0, 1, True), default=0.5,
                     help="scale of trajectory screenshots (default 0.5)")
    run.add_argument("--env-url", help="play on a `mobilegym serve` server at this URL (its token: "
                                       "$MOBILEGYM_SERVE_TOKEN) instead of local envs")
    run.add_argument("--device", metavar="SERIAL|HOST:PORT",
                     help="play on this ADB device (a phone, an emulator or `mobilegym serve-adb`) instead of the "
                          "in-process simulated phone; the adb server: $ANDROID_ADB_SERVER_PORT (default 5037)")
    run.add_argument("--progress", choices=PROGRESS, default="auto", help="progress bar (auto: on a terminal)")
    run.add_argument("--no-report", dest="report", action="store_false", help="skip report.html and the plots")
    # Options left out of the command line are absent from the parsed namespace (their defaults live in
    # DEFAULTS), so a resumed run can take them from the run it continues.
    for action in p._actions:
        if action.dest != "help":
            DEFAULTS[action.dest] = action.default
            action.default = argparse.SUPPRESS
    p.set_defaults(func=cmd_eval)


DEFAULTS: dict[str, Any] = {}
# command-line destinations -> EvalConfig fields (the rest have the same name; `report` is not a field)
FIELDS = {"suite": "suites", "task": "tasks", "filter": "filters", "agent_arg": "agent_options", "mode": "eval_mode",
          "time_limit": "time_limit_s"}


def option(args: argparse.Namespace, dest: str) -> Any:
    """A parsed option, or its default when the command line left it out."""
    return getattr(args, dest, DEFAULTS.get(dest))


def given_options(args: argparse.Namespace) -> dict[str, Any]:
    """The EvalConfig fields the command line gives explicitly."""
    given: dict[str, Any] = {}
    for dest in DEFAULTS:
        if dest == "report" or not hasattr(args, dest):
            continue
        value = getattr(args, dest)
        if dest == "filter":
            filters: dict[str, list[str]] = {}
            for key, item in value:
                values = item if isinstance(item, list) else str(item).split(",")
                filters.setdefault(key, []).extend(str(v) for v in values)
            value = filters
        elif dest == "agent_arg":
            value = dict(value)
        given[FIELDS.get(dest, dest)] = value
    return given


def config_from_args(args: argparse.Namespace) -> EvalConfig:
    """The EvalConfig the parsed command line names. With --resume, --rerun-failed or --force-resume the
    options it leaves out are those of the run in --out (its meta.json), and --agent-arg values are merged
    into that run's agent options; so ``mobilegym eval --out DIR --resume`` continues a run as it was."""
    given = given_options(args)
    if not any(given.get(k) for k in ("resume", "rerun_failed", "force_resume")):
        return EvalConfig(**given)
    out = given.get("out", DEFAULTS["out"])
    meta_path = Path(out) / "meta.json"
    if not meta_path.exists():
        raise ConfigError(f"nothing to resume: {meta_path} does not exist")
    try:
        saved = dict(json.loads(meta_path.read_text(encoding="utf-8"))["config"])
    except (ValueError, KeyError, TypeError):
        raise ConfigError(f"{meta_path} is not a mobilegym eval meta.json; the results folder is damaged") from None
    for key in EXECUTION_KEYS:  # how the earlier run executed is not carried over
        saved.pop(key, None)
    if "agent" not in given or given["agent"] == saved.get("agent"):
        given["agent_options"] = {**saved.get("agent_options", {}), **given.get("agent_options", {})}
    known = {f.name for f in dataclasses.fields(EvalConfig)}
    return EvalConfig(**{**{k: v for k, v in saved.items() if k in known}, **given})


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a short table: overall, then per suite."""
    def line(name: str, m: dict[str, Any]) -> str:
        sr = m["success_rate"]
        if not m["scored"]:
            return f"{name:14} {m['episodes']:8d}   no scored episodes ({m['errors']} errored)"
        return (f"{name:14} {m['episodes']:8d} {sr['mean']:8.1%} [{sr['ci95'][0]:.0%}-{sr['ci95'][1]:.0%}]"
                f" {m['progress']:8.2f} {m['false_complete_rate']:8.1%} {m['overdue_rate']:8.1%}"
                f" {m['avg_steps']:6.1f} {m['errors']:6d}")

    head = (f"{'':14} {'episodes':>8} {'success':>8} {'95% CI':>9} {'progress':>8} {'false ok':>8} {'overdue':>8}"
            f" {'steps':>6} {'errors':>6}")
    rows = [line("all", summary)] + [line(name, m) for name, m in summary["by"]["suite"].items()]
    lines = [head, *rows, "  ".join(f"pass@{k} {v:.1%}" for k, v in summary["pass_at_k"].items())]
    if summary["errors"]:
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(summary["errors_by_kind"].items()))
        lines.append(f"{summary['errors']} episode(s) errored ({kinds}) and are left out of the rates: "
                     f"see errors.jsonl; --rerun-failed runs them again")
    return "\n".join(lines)


def _saved(out: str) -> int:
    """How many episodes a results folder holds (for the message after an interrupted run)."""
    path = Path(out) / "results.jsonl"
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip()) if path.exists() else 0


def cmd_eval(args: argparse.Namespace) -> int:
    """Run the evaluation; print the summary table and where the results are. Exit 1 when the agent's
    preflight fails or no episode could be scored; 130 on Ctrl-C, after saying how to continue."""
    from .run import evaluate

    config = config_from_args(args)
    report = option(args, "report")
    try:
        run = evaluate(config, report=report)
    except PreflightError as exc:
        print(f"mobilegym eval: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\nmobilegym eval: interrupted; {_saved(config.out)} finished episode(s) are saved in {config.out}/. "
              "Run the same command with --resume to continue.", file=sys.stderr)
        return 130
    print(format_summary(run.summary))
    for note in run.notes:
        print(f"note: {note}")
    print(f"results in {run.root}/" + (f" (open {run.root / 'report.html'})" if report else ""))
    if run.summary["episodes"] and not run.summary["scored"]:
        print(f"mobilegym eval: error: no scored episodes: all {run.summary['episodes']} errored (see "
              f"{run.root / 'errors.jsonl'}); fix the cause, then --rerun-failed runs them again", file=sys.stderr)
        return 1
    return 0
