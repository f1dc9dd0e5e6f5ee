"""PNG plots of a results folder: success rate by suite and by difficulty, with 95% CI error bars.

Drawn from summary.json with matplotlib's Agg backend (imported when called), matplotlib's
default style whatever the user's matplotlibrc says, and no timestamp or version in the file, so
the same summary gives the same bytes.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..extras import require
from .report import PLOT_DIR, ReportError, read_json

PLOTS = (("suite", "Success rate by suite"), ("difficulty", "Success rate by difficulty"))


def write_plots(results_dir: str | Path) -> list[Path]:
    """Write ``plots/success_by_<group>.png`` for each group with results; return the files written."""
    root = Path(results_dir)
    summary = read_json(root / "summary.json")
    by = summary.get("by") if isinstance(summary, dict) else None
    if not isinstance(by, dict):
        raise ReportError(f"{root / 'summary.json'} has no 'by' object (per suite, difficulty, ...)")
    written = []
    for group, title in PLOTS:
        groups = by.get(group)
        if isinstance(groups, dict) and groups:
            path = root / PLOT_DIR / f"success_by_{group}.png"
            _bar_chart(groups, title, path)
            written.append(path)
    return written


def _rate(record: Any) -> tuple[float, float, float]:
    """(mean, lower, upper) of a group's success rate; a missing interval is a zero-length bar."""
    rate = record.get("success_rate") if isinstance(record, dict) else None
    mean = rate.get("mean") if isinstance(rate, dict) else rate
    mean = float(mean) if isinstance(mean, (int, float)) else 0.0
    ci = rate.get("ci95") if isinstance(rate, dict) else None
    if isinstance(ci, list) and len(ci) == 2 and all(isinstance(x, (int, float)) for x in ci):
        return mean, min(float(ci[0]), mean), max(float(ci[1]), mean)
    return mean, mean, mean


def _bar_chart(groups: Mapping[str, Any], title: str, path: Path) -> None:
    require("matplotlib", "the plots of `mobilegym eval`")
    from matplotlib import style
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter

    names = sorted(groups)
    rates = [_rate(groups[name]) for name in names]
    labels = [f"{name}\nn={groups[name].get('episodes', '?')}" if isinstance(groups[name], dict) else name
              for name in names]
    with style.context("default"):
        figure = Figure(figsize=(max(4.0, 1.0 + 0.9 * len(names)), 3.6), dpi=100)
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        axes.bar(range(len(names)), [m for m, _, _ in rates], color="#2457c5", width=0.6,
                 yerr=[[m - lo for m, lo, _ in rates], [hi - m for m, _, hi in rates]], capsize=4, ecolor="#1d2330")
        axes.set_xticks(range(len(names)), labels, rotation=30 if len(names) > 6 else 0,
                        ha="right" if len(names) > 6 else "center")
        axes.set_ylim(0, 1.05)
        axes.yaxis.set_major_formatter(PercentFormatter(1.0))
        axes.set_ylabel("success rate")
        axes.set_title(f"{title} (95% CI)")
        axes.grid(axis="y", alpha=0.3)
        figure.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, format="png", metadata={"Software": None})
