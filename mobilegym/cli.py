"""The ``mobilegym`` command line: demo, list, oracle, adversaries, and (from other modules) eval, serve and
serve-adb."""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections import defaultdict
from typing import Any, Sequence

from mobilegym import ENV_ID
from mobilegym.answer_sheet_ids import HARNESS_APPS
from mobilegym.device.base import WORLDS
from mobilegym.languages import LANGUAGES

DEFAULT_DEMO_TASK = "settings.ToggleWifi"


def _apps_of(meta: dict[str, Any]) -> list[str]:
    return list(meta["related_apps"])


def cmd_demo(args: argparse.Namespace) -> int:
    """One episode on the simulated phone, driven by the task's scripted plan, printed and recorded."""
    import gymnasium as gym

    import mobilegym  # noqa: F401  (registers the environment)
    from mobilegym.oracle import plans_for, run_plan
    from mobilegym.recording import RecordEpisode

    from mobilegym.judge.registry import find_task

    find_task(args.task)  # an unknown id is a usage error that names the closest ones
    oracle = next((p for p in plans_for(args.task) if p.expect_success), None)
    if oracle is None:
        print(f"error: task {args.task!r} has no scripted plan to demo", file=sys.stderr)
        return 2
    env = RecordEpisode(gym.make(ENV_ID, task=args.task, eval_mode=args.mode, render_scale=args.scale,
                                 world=args.world),
                        args.out, echo=print)
    reward, info, _ = run_plan(env, args.task, oracle, seed=args.seed)
    env.close()
    judge = info["judge"]
    print(f"\nreward: {reward:g}   success: {judge['success']}   clean: {judge['clean']}   "
          f"progress: {judge['progress']:g}")
    for check in judge["checks"]:
        mark = "PASS" if check["passed"] else "FAIL"
        print(f"  [{mark}] {check['field']}: expected {check['expected']!r}, actual {check['actual']!r}")
    if judge.get("error"):
        print(f"  task error: {judge['error']}")
    print(f"screenshots and trajectory.jsonl saved in {args.out}/")
    return 0 if reward == 1.0 else 1


def cmd_list(args: argparse.Namespace) -> int:
    """Every task with its suite, kind, objective, difficulty and apps, with filters."""
    from mobilegym.judge import default_registry, filter_tasks

    registry = default_registry()
    every = [r.metadata for r in registry.refs.values()]
    status = (_unknown("list", "suite", [args.suite] if args.suite else [], {m.get("suite", "?") for m in every})
              or _unknown("list", "app", [args.app] if args.app else [], {a for m in every for a in _apps_of(m)}))
    if status is not None:
        return status
    criteria = {k: v for k, v in (("suite", args.suite), ("objective", args.objective),
                                  ("difficulty", args.difficulty), ("kind", args.kind)) if v}
    refs = filter_tasks(registry.refs.values(), **criteria)
    if args.app:
        refs = [r for r in refs if args.app in _apps_of(r.metadata)]
    if args.split:
        from mobilegym.judge.splits import split_ids

        listed = set(split_ids(args.split))
        refs = [r for r in refs if r.id in listed]
    refs.sort(key=lambda r: r.id)
    if args.json:
        print(json.dumps([r.metadata for r in refs], ensure_ascii=False, indent=1, default=str))
        return 0
    if args.summary:
        print(suite_summary([r.metadata for r in refs]))
        return 0
    print(f"{'task':44} {'kind':7} {'objective':9} {'diff':4} apps")
    for ref in refs:
        m = ref.metadata
        print(f"{ref.id:44} {m.get('kind', ''):7} {m.get('objective', ''):9} {m.get('difficulty', ''):4} "
              f"{','.join(_apps_of(m))}")
    print(f"{len(refs)} task(s)")
    for source, error in sorted(registry.errors.items()):
        print(f"warning: could not load {source}: {error}", file=sys.stderr)
    return 0


SUMMARY_COLUMNS = ("tasks", "python", "json", "operate", "query", "hybrid", "cross-app", "3+ apps", "infeasible",
                   "high-risk", "L1", "L2", "L3", "L4")


def suite_summary(metas: Sequence[dict[str, Any]]) -> str:
    """A Markdown table of task counts per suite: kinds, objectives, cross-app (two apps or more), tasks chaining
    three apps or more, infeasible, high-risk, difficulty."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(SUMMARY_COLUMNS, 0))
    for m in metas:
        tags = {"tasks", m.get("kind"), m.get("objective"), m.get("difficulty")}
        chained = set(_apps_of(m)) - set(HARNESS_APPS)
        if len(_apps_of(m)) > 1:
            tags.add("cross-app")
        if len(chained) >= 3:
            tags.add("3+ apps")
        if m.get("infeasible"):
            tags.add("infeasible")
        if m.get("high_risk"):
            tags.add("high-risk")
        for row in (counts[m.get("suite", "?")], counts["**total**"]):
            for tag in tags & set(SUMMARY_COLUMNS):
                row[tag] += 1
    lines = ["| suite | " + " | ".join(SUMMARY_COLUMNS) + " |", "|---" * (len(SUMMARY_COLUMNS) + 1) + "|"]
    for suite in sorted(counts, key=lambda k: (k == "**total**", k)):
        lines.append(f"| {suite} | " + " | ".join(str(counts[suite][c]) for c in SUMMARY_COLUMNS) + " |")
    return "\n".join(lines)


def _progress(done: int, total: int, label: str) -> None:
    """A progress bar redrawn in place on a terminal; elsewhere (a log file, CI) a plain line per tenth."""
    if sys.stderr.isatty():
        width = 30
        filled = width * done // max(1, total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label[:40]:40}")
    elif done == total or done * 10 // max(1, total) != (done - 1) * 10 // max(1, total):
        sys.stderr.write(f"{done}/{total} {label}\n")
    sys.stderr.flush()


def _unknown(command: str, kind: str, given: Sequence[str], known: Sequence[str]) -> int | None:
    """Exit status 2 with a message when ``given`` names something not in ``known``; None if all are known."""
    unknown = sorted(set(given) - set(known))
    if not unknown:
        return None
    print(f"mobilegym {command}: error: unknown {kind} {', '.join(map(repr, unknown))} "
          f"(known: {', '.join(sorted(known))})", file=sys.stderr)
    return 2


def cmd_oracle(args: argparse.Namespace) -> int:
    """Run every task's scripted plans and print a per-suite table of passes and failures."""
    import gymnasium as gym

    import mobilegym  # noqa: F401
    from mobilegym.judge import default_registry
    from mobilegym.oracle import plans_for, run_plan

    registry = default_registry()
    status = _unknown("oracle", "suite", args.suite or [], {r.metadata.get("suite", "?") for r in registry.refs.values()})
    if status is not None:
        return status
    refs = [r for r in registry.refs.values() if not args.suite or r.metadata.get("suite") in args.suite]
    refs.sort(key=lambda r: r.id)
    modes = ["grounded", "text"] if args.mode == "both" else [args.mode]
    jobs = [(ref, mode, seed) for ref in refs for mode in modes for seed in range(args.seeds)]
    envs = {mode: gym.make(ENV_ID, task=[r.id for r in refs], eval_mode=mode, obs_parts=("a11y",))
            for mode in modes} if refs else {}
    table: dict[str, dict[str, int]] = defaultdict(lambda: {"tasks": 0, "passed": 0, "failed": 0})
    failures: list[str] = []
    failed_runs: list[dict[str, Any]] = []
    task_ok: dict[str, bool] = {}
    for n, (ref, mode, seed) in enumerate(jobs):
        _progress(n, len(jobs), ref.id)
        oracle = next((p for p in plans_for(ref.id) if p.expect_success), None)
        if oracle is None:
            ok, why = False, "no oracle plan"
        else:
            try:
                reward, info, _ = run_plan(envs[mode], ref.id, oracle, seed)
                ok, why = reward == 1.0, f"reward {reward:g}: {_failed_checks(info)}"
            except Exception as exc:  # a broken plan is reported, not fatal for the whole run
                ok, why = False, f"{type(exc).__name__}: {exc}"
        if not ok:
            failures.append(f"{ref.id} [{mode}, seed {seed}]: {why}")
            failed_runs.append({"task": ref.id, "mode": mode, "seed": seed, "reason": why})
        task_ok[ref.id] = task_ok.get(ref.id, True) and ok
    _progress(len(jobs), len(jobs), "done")
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    for task_id, ok in task_ok.items():
        row = table[registry.refs[task_id].metadata.get("suite", "?")]
        row["tasks"] += 1
        row["passed" if ok else "failed"] += 1
    if args.json:
        total = {k: sum(r[k] for r in table.values()) for k in ("tasks", "passed", "failed")}
        print(json.dumps({"suites": {k: table[k] for k in sorted(table)}, "total": total, "tasks": task_ok,
                          "failures": failed_runs}, ensure_ascii=False, indent=1))
        return 0 if not failures else 1
    print(f"{'suite':14} {'tasks':>5} {'passed':>6} {'failed':>6}")
    for suite in sorted(table):
        row = table[suite]
        print(f"{suite:14} {row['tasks']:5d} {row['passed']:6d} {row['failed']:6d}")
    total = {k: sum(r[k] for r in table.values()) for k in ("tasks", "passed", "failed")}
    print(f"{'total':14} {total['tasks']:5d} {total['passed']:6d} {total['failed']:6d}")
    for line in failures:
        print(f"FAILED {line}")
    return 0 if not failures else 1


def _failed_checks(info: dict[str, Any]) -> str:
    judge = info.get("judge") or {}
    if judge.get("error"):
        return f"task error: {judge['error']}"
    bad = [c["field"] for c in judge.get("checks", []) if not c["passed"]]
    return "failed checks: " + ", ".join(bad) if bad else "no failed checks"


def cmd_adversaries(args: argparse.Namespace) -> int:
    """Play the adversary and false-negative suites and print a table per suite; 1 if the judge erred."""
    from mobilegym.eval import Runner
    from mobilegym.eval.adversaries import BY_NAME
    from mobilegym.eval.suites import SUITES, report, run_suites

    for kind, given, known in (("suite", args.suite, SUITES), ("adversary", args.adversary, BY_NAME)):
        unknown = sorted(set(given or ()) - set(known))
        if unknown:
            print(f"error: unknown {kind} {', '.join(unknown)} (known: {', '.join(known)})", file=sys.stderr)
            return 2
    runner = Runner() if args.wrong_targets is None else Runner(wrong_targets=args.wrong_targets)
    try:
        tallies = run_suites(runner, args.suite or SUITES, args.seeds, args.task, args.adversary, args.random_rollouts,
                             progress=_label_progress if args.progress else lambda _: None)
    finally:
        runner.close()
    if args.progress and sys.stderr.isatty():
        sys.stderr.write("\n")
    print(report(tallies, args.failures))
    return 0 if all(t.failures(row) == 0 for t in tallies for row in t.rows.values()) else 1


def _label_progress(label: str) -> None:
    """The case being played: redrawn in place on a terminal, one line each elsewhere."""
    sys.stderr.write(f"\r{label[:100]:100}" if sys.stderr.isatty() else f"{label}\n")
    sys.stderr.flush()


def _number_type(kind: type, lo: float, hi: float, lo_open: bool = False) -> Any:
    """An argparse type: a number of ``kind`` in [lo, hi] ((lo, hi] with ``lo_open``): a usage error otherwise."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {'an integer' if kind is int else 'a number'}") from None
        if not math.isfinite(value) or not (lo < value if lo_open else lo <= value) or not value <= hi:
            raise argparse.ArgumentTypeError(f"{text} is not in {'(' if lo_open else '['}{lo:g}, {hi:g}]")
        return value

    parse.__name__ = kind.__name__
    return parse


SCALE = _number_type(float, 0, 1, lo_open=True)
PORT = _number_type(int, 0, 65535)
SEEDS = _number_type(int, 1, 1_000_000)
SEED = _number_type(int, 0, 2**31 - 2)
PIXELS = _number_type(int, 200, 4096)


def cmd_serve_adb(args: argparse.Namespace) -> int:
    """Serve a simulated phone over the ADB protocol until Ctrl-C."""
    from mobilegym.adbd.server import serve_adb_main

    return serve_adb_main(args)


def build_parser() -> argparse.ArgumentParser:
    from mobilegym import __version__
    from mobilegym.judge.splits import MANIFESTS

    parser = argparse.ArgumentParser(prog="mobilegym", description="MobileGym: a phone for GUI agents.")
    parser.add_argument("--version", action="version", version=f"mobilegym {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="run one scripted episode on the simulated phone and save screenshots")
    demo.add_argument("--task", default=DEFAULT_DEMO_TASK, help=f"task id (default {DEFAULT_DEMO_TASK})")
    demo.add_argument("--seed", type=SEED, default=0)
    demo.add_argument("--mode", choices=["grounded", "text"], default="grounded", help="evaluation mode")
    demo.add_argument("--scale", type=SCALE, default=0.5, help="screenshot render scale in (0, 1] (default 0.5)")
    demo.add_argument("--out", default="demo_out", help="folder for screenshots (default demo_out)")
    demo.add_argument("--world", choices=WORLDS, default="generated",
                      help="the seed's generated phone (default) or the canonical one")
    demo.set_defaults(func=cmd_demo)

    lst = sub.add_parser("list", help="list tasks")
    lst.add_argument("--suite")
    lst.add_argument("--objective", choices=["operate", "query", "hybrid"])
    lst.add_argument("--difficulty", choices=["L1", "L2", "L3", "L4"])
    lst.add_argument("--kind", choices=["python", "json"])
    lst.add_argument("--app", help="only tasks that involve this app")
    lst.add_argument("--split", choices=MANIFESTS,
                     help="only tasks in this manifest of tasks/splits/")
    lst.add_argument("--json", action="store_true", help="print metadata as JSON")
    lst.add_argument("--summary", action="store_true", help="print a Markdown table of task counts per suite")
    lst.set_defaults(func=cmd_list)

    oracle = sub.add_parser("oracle", help="run the scripted plans of every task and tabulate by suite")
    oracle.add_argument("--suite", action="append", help="only this suite (repeatable)")
    oracle.add_argument("--seeds", type=SEEDS, default=2, help="seeds per task and mode (default 2)")
    oracle.add_argument("--mode", choices=["grounded", "text", "both"], default="both")
    oracle.add_argument("--json", action="store_true",
                        help="print the result as JSON (suites, total, per-task pass, failures) instead of a table")
    oracle.set_defaults(func=cmd_oracle)

    adv = sub.add_parser("adversaries", help="play the adversary and false-negative suites and print their tables")
    adv.add_argument("--suite", action="append", help="adversaries or false-negatives (repeatable; default both)")
    adv.add_argument("--seeds", type=SEED, nargs="+", default=[0, 1, 2], help="reset seeds (default 0 1 2)")
    adv.add_argument("--task", action="append", help="only this task id (repeatable)")
    adv.add_argument("--adversary", action="append", help="only this adversary, e.g. hedge (repeatable)")
    adv.add_argument("--wrong-targets", type=int, default=None,
                     help="other parameter sets per case (default: mobilegym.eval.runs.WRONG_TARGETS, 1)")
    adv.add_argument("--random-rollouts", type=int, default=0,
                     help="also measure the random agent on one-step tasks with this many rollouts each")
    adv.add_argument("--failures", action="store_true", help="list the tasks of every row judged wrongly")
    adv.add_argument("--progress", action="store_true", help="show the case being played on stderr")
    adv.set_defaults(func=cmd_adversaries)

    from mobilegym.eval.harness.cli import add_eval_parser

    add_eval_parser(sub, _number_type)

    from mobilegym.serve import add_serve_parser

    add_serve_parser(sub, _number_type)

    adbd = sub.add_parser("serve-adb", help="serve a simulated phone over the ADB protocol (adb connect HOST:PORT)")
    adbd.add_argument("--port", type=PORT, default=5555, help="TCP port (default 5555; 0 picks a free one)")
    adbd.add_argument("--host", default="127.0.0.1",
                      help="address to bind (default 127.0.0.1, loopback only; any other needs --auth-keys)")
    adbd.add_argument("--auth-keys", metavar="FILE",
                      help="ADB public keys (adbkey.pub lines) of the hosts allowed in; the others stay unauthorized")
    adbd.add_argument("--width", type=PIXELS, default=1080)
    adbd.add_argument("--height", type=PIXELS, default=2400)
    adbd.add_argument("--render-scale", type=SCALE, default=1.0, help="screencap scale in (0, 1]")
    adbd.add_argument("--language", choices=tuple(LANGUAGES), default="en")
    adbd.add_argument("--world", choices=WORLDS, default="generated",
                      help="what `mobilegym state reset SEED` loads: the seed's generated world (default) or the "
                           "canonical one")
    adbd.set_defaults(func=cmd_serve_adb)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command. Bad input is a usage error (exit status 2, one line on stderr, no traceback); a reader
    that stops early (``mobilegym list | head``) ends the output quietly."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.func(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # the reader has gone: point stdout at /dev/null so the interpreter's final flush is silent
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except ValueError as exc:  # TaskError, InvalidAction, a bad option value: the user's input
        print(f"mobilegym {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except ImportError as exc:  # an optional dependency; the message names the extra that installs it
        print(f"mobilegym {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # e.g. the port is in use, the output folder cannot be written
        print(f"mobilegym {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
