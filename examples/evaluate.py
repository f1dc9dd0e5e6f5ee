"""Evaluate your own agent with the harness of ``mobilegym eval`` (the Python API).

    python examples/evaluate.py [--split test] [--sample-n 2] [--out eval_results]

``FirstButtonAgent`` below is a complete agent in ten lines: it taps the first clickable node it
has not tapped yet and gives up after eight steps. ``evaluate`` runs it over the split, writes
the results folder (results.jsonl, summary.json, trajectories/, report.html) and returns the
summary. From the shell, ``mobilegym eval --agent package.module:Class`` runs any importable agent.
"""
from __future__ import annotations

import argparse

from mobilegym import screen_text
from mobilegym.eval.harness import evaluate
from mobilegym.eval.harness.cli import format_summary


class FirstButtonAgent:
    name, version = "first-button", "1"

    def reset(self, instruction: str, info: dict) -> None:
        self.tapped: set[tuple[int, int]] = set()

    def act(self, obs: dict, info: dict) -> dict:
        fresh = [n.center for n in screen_text.parse_nodes(obs["a11y"]) if n.clickable and n.center not in self.tapped]
        if len(self.tapped) >= 8 or not fresh:
            return {"type": "abort"}
        self.tapped.add(fresh[0])
        return {"type": "tap", "x": fresh[0][0], "y": fresh[0][1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="test", choices=("all", "train", "test", "infeasible"))
    parser.add_argument("--sample-n", type=int, default=2, help="parameter instances (seeds) per task")
    parser.add_argument("--out", default="eval_results")
    args = parser.parse_args()
    run = evaluate(agent=FirstButtonAgent, split=args.split, sample_n=args.sample_n, out=args.out)
    print(format_summary(run.summary))
    print(f"results and report.html in {run.root}/")


if __name__ == "__main__":
    main()
