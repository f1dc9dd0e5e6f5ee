"""Did breadth (twenty apps, 340+ tasks) slow the hot path? Today's checkout beside the revision before the new
apps, measured in the same run (issue 18: steps/s at RL resolution and reset time within 10% of before).

    python benchmarks/bench_breadth.py [--baseline a4b4e34] [--steps 1000] [--rounds 3]

The baseline (by default the last commit with the nine first apps) is checked out into a temporary git worktree
and imported from there in its own process; today's code runs in another, with every app installed. Both run
bench_speed's random grid agent on ``home.OpenApp`` at RL resolution (1080x2400 rendered at 0.1, screenshot and
tree in every observation) after a warm-up, a new world every episode, and time 100 resets; rounds alternate
and each side keeps its best round. Both run pinned to one core.
"""
from __future__ import annotations

import argparse
import json
import os

from baseline import baseline_site, run_worker

TASK = "home.OpenApp"


def worker(steps: int) -> None:
    """Measure whichever mobilegym this process imports; print JSON."""
    import gymnasium as gym

    import mobilegym  # noqa: F401
    from bench_speed import RL_SCALE, WARMUP, agent_actions, as_dict, reset_ms, timed_steps

    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    env = gym.make("MobileGym-v0", task=TASK, render_scale=RL_SCALE, shuffle_launcher=True)
    rate, with_resets = timed_steps(env, agent_actions(steps), as_dict, WARMUP)
    result = {"steps_per_s": rate, "steps_per_s_incl_resets": with_resets, "reset_ms": reset_ms(env),
              "apps": len(env.unwrapped.device.get_state()["apps"])}
    env.close()
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default="a4b4e34", help="git revision to compare against")
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; each side keeps its best")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.steps)
        return
    runs: dict[str, list[dict[str, float]]] = {"baseline": [], "today": []}
    with baseline_site(args.baseline) as site:
        for _ in range(args.rounds):
            runs["baseline"].append(run_worker(__file__, site, "--steps", str(args.steps)))
            runs["today"].append(run_worker(__file__, None, "--steps", str(args.steps)))
    base = max(runs["baseline"], key=lambda r: r["steps_per_s"])
    today = max(runs["today"], key=lambda r: r["steps_per_s"])
    fastest_reset = {side: min(r["reset_ms"] for r in rows) for side, rows in runs.items()}
    print(f"baseline {args.baseline} ({base['apps']} apps) vs today ({today['apps']} apps), {TASK} at RL resolution, "
          f"best of {args.rounds} alternating rounds\n")
    print("| measure | baseline | today | today/baseline |")
    print("|---|---|---|---|")
    for key, label in (("steps_per_s", "steps/s"), ("steps_per_s_incl_resets", "steps/s incl. resets")):
        print(f"| {label} | {base[key]:,.0f} | {today[key]:,.0f} | {today[key] / base[key]:.2f} |")
    b, t = fastest_reset["baseline"], fastest_reset["today"]
    print(f"| reset ms | {b:.1f} | {t:.1f} | {t / b:.2f} |")


if __name__ == "__main__":
    main()
