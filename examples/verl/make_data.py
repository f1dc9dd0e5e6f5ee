"""Write verl train/val parquet files of MobileGym (task, seed) rows for the ``mobilegym_agent`` loop.

    python examples/verl/make_data.py --tasks clock.CountAlarms home.OpenApp --seeds 0-999 --out data/mobilegym
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mobilegym.trainers.verl import verl_rows


def seed_range(text: str) -> range:
    start, _, stop = text.partition("-")
    return range(int(start), int(stop or start) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", nargs="+", required=True)
    parser.add_argument("--seeds", type=seed_range, default=range(0, 1000), help="train seeds, e.g. 0-999")
    parser.add_argument("--val-seeds", type=seed_range, default=range(1_000_000, 1_000_020))
    parser.add_argument("--out", type=Path, default=Path("data/mobilegym"))
    args = parser.parse_args()
    import pandas as pd

    args.out.mkdir(parents=True, exist_ok=True)
    for name, seeds in (("train", args.seeds), ("val", args.val_seeds)):
        rows = verl_rows([(task, seed) for seed in seeds for task in args.tasks])
        pd.DataFrame(rows).to_parquet(args.out / f"{name}.parquet")
        print(f"{args.out / name}.parquet: {len(rows)} rows")


if __name__ == "__main__":
    main()
