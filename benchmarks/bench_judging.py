"""Does judging slow stepping? Today's checkout beside a baseline revision, measured in the same run.

    python benchmarks/bench_judging.py [--baseline ca9d4a3] [--seeds 2] [--rounds 3]

The baseline (by default the last commit before the sound-rewards judge) is checked out into a
temporary git worktree and imported from there in its own process; today's code runs in another.
Both run the same workloads, in alternating rounds, keeping each one's best round:

- ``oracle episodes``: every task's oracle plan, seeds 0..N-1, grounded mode: resets, steps and the
  terminal judge, as an evaluation run does (steps/s over whole episodes, and the mean judge time
  of the terminal step from ``info["timings"]``);
- ``random steps (final)``: a seeded random agent at RL resolution (render_scale 0.1, tree only)
  on a few tasks: the judge runs only when an episode ends;
- ``random steps (dense)``: the same with ``reward_mode="dense"``: the judge's progress runs every step.

It prints one row per workload and the ratio today/baseline (1.00 = no slower).
"""
from __future__ import annotations

import argparse
import json
import time
from typing import Any

from baseline import baseline_site, run_worker

RANDOM_TASKS = ("clock.CountAlarms", "settings.ToggleWifi", "music.LikeSong", "calendar.CountEventsOnDate")
RANDOM_STEPS = 3000


def _oracle_episodes(seeds: int) -> dict[str, float]:
    import gymnasium as gym

    from mobilegym.judge import default_registry
    from mobilegym.oracle import plans_for, run_plan

    task_ids = sorted(default_registry().refs)
    env = gym.make("MobileGym-v0", task=task_ids, eval_mode="grounded", obs_parts=("a11y",))
    steps, judge_ms, episodes = 0, 0.0, 0
    start = time.perf_counter()
    for task_id in task_ids:
        oracle = next((p for p in plans_for(task_id) if p.expect_success), None)
        if oracle is None:
            continue
        for seed in range(seeds):
            _, info, driver = run_plan(env, task_id, oracle, seed)
            steps += len(driver.trace)
            judge_ms += float(dict(info.get("timings") or {}).get("judge_ms", 0.0))
            episodes += 1
    elapsed = time.perf_counter() - start
    env.close()
    return {"steps_per_s": steps / elapsed, "judge_ms": judge_ms / max(episodes, 1), "episodes": episodes}


def _random_steps(reward_mode: str) -> dict[str, float]:
    import gymnasium as gym
    import numpy as np

    env = gym.make("MobileGym-v0", task=list(RANDOM_TASKS), render_scale=0.1, obs_parts=("a11y",),
                   reward_mode=reward_mode)
    rng = np.random.default_rng(0)
    env.action_space.seed(0)
    env.reset(seed=0)
    width, height = env.unwrapped.device.screen_size
    elapsed, episode = 0.0, 0
    for _ in range(RANDOM_STEPS):
        action = ({"type": "key", "key": "back"} if rng.random() < 0.05 else
                  {"type": "tap", "x": int(rng.integers(width)), "y": int(rng.integers(height))})
        start = time.perf_counter()
        *_, terminated, truncated, _ = env.step(action)
        elapsed += time.perf_counter() - start
        if terminated or truncated:
            episode += 1
            env.reset(seed=episode)
    env.close()
    return {"steps_per_s": RANDOM_STEPS / elapsed}


def worker(seeds: int) -> None:
    """Run every workload in this process (whichever mobilegym it imports) and print JSON."""
    print(json.dumps({"oracle": _oracle_episodes(seeds), "final": _random_steps("final"),
                      "dense": _random_steps("dense")}))


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per workload, the round with the most steps per second."""
    return {name: max((r[name] for r in runs), key=lambda row: row["steps_per_s"]) for name in runs[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", default="ca9d4a3", help="git revision to compare against")
    parser.add_argument("--seeds", type=int, default=2, help="oracle seeds per task")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; each side keeps its best")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.seeds)
        return
    runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "today": []}
    with baseline_site(args.baseline) as site:
        for _ in range(args.rounds):
            runs["baseline"].append(run_worker(__file__, site, "--seeds", str(args.seeds)))
            runs["today"].append(run_worker(__file__, None, "--seeds", str(args.seeds)))
    base, today = _best(runs["baseline"]), _best(runs["today"])
    print(f"baseline {args.baseline} vs today, best of {args.rounds} alternating rounds\n")
    print("| workload | baseline steps/s | today steps/s | today/baseline |")
    print("|---|---|---|---|")
    for name, label in (("oracle", "oracle episodes (reset + steps + judge)"),
                        ("final", "random steps, reward_mode=final"), ("dense", "random steps, reward_mode=dense")):
        b, t = base[name]["steps_per_s"], today[name]["steps_per_s"]
        print(f"| {label} | {b:,.0f} | {t:,.0f} | {t / b:.2f} |")
    print(f"\nterminal judge, mean per oracle episode: baseline {base['oracle']['judge_ms']:.2f} ms, "
          f"today {today['oracle']['judge_ms']:.2f} ms ({today['oracle']['episodes']} episodes)")


if __name__ == "__main__":
    main()
