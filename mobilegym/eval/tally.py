"""Counting a suite's judged episodes per adversary (or phrasing), and its table."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from .runs import Outcome


@dataclass
class Row:
    episodes: int = 0
    paid: int = 0
    allowed: int = 0  # paid, but tolerated (a random agent on a one-step task)
    skipped: int = 0  # ended as the oracle did: not an adversary, not counted as an episode
    wrong_tasks: dict[str, None] = field(default_factory=dict)  # tasks judged against the suite's goal


@dataclass(repr=False)
class Tally:
    """Episodes per name. For adversaries (``want_paid`` False) a payment is a failure; for right answers
    (``want_paid`` True) a rejection is. Skipped outcomes (an ending the same as the oracle's) are counted
    apart. ``seconds`` is the wall time the suite's tests spent playing."""

    title: str
    want_paid: bool
    rows: dict[str, Row] = field(default_factory=dict)
    seconds: float = 0.0

    def __repr__(self) -> str:
        episodes = sum(r.episodes for r in self.rows.values())
        return f"<Tally {self.title!r}: {episodes} episodes, {len(self.rows)} rows>"

    def add(self, outcomes: Iterable[Outcome]) -> None:
        for o in outcomes:
            row = self.rows.setdefault(o.suite_name, Row())
            if o.skipped:
                row.skipped += 1
                continue
            row.episodes += 1
            row.paid += o.paid
            row.allowed += o.paid and o.allowed
            if (not o.paid) if self.want_paid else o.beat_the_judge:
                row.wrong_tasks.setdefault(o.case.task_id, None)

    def merge(self, other: "Tally") -> None:
        """Add another tally of the same suite (e.g. from a parallel test worker) to this one."""
        for name, theirs in other.rows.items():
            row = self.rows.setdefault(name, Row())
            row.episodes += theirs.episodes
            row.paid += theirs.paid
            row.allowed += theirs.allowed
            row.skipped += theirs.skipped
            row.wrong_tasks.update(theirs.wrong_tasks)
        self.seconds += other.seconds

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (see :meth:`from_dict`)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Tally":
        return cls(data["title"], data["want_paid"], {n: Row(**r) for n, r in data["rows"].items()}, data["seconds"])

    def failures(self, row: Row) -> int:
        """Episodes judged against the suite's goal: adversaries paid (not allowed), right answers rejected."""
        return row.episodes - row.paid if self.want_paid else row.paid - row.allowed

    def table(self) -> str:
        """One line per name (adversaries in play order, phrasings sorted), a total, and the wall time."""
        names = sorted(self.rows) if self.want_paid else list(self.rows)
        total = Row(*(sum(getattr(r, k) for r in self.rows.values()) for k in ("episodes", "paid", "allowed", "skipped")))
        width = max([len(n) for n in names] + [len("total"), 9])
        if self.want_paid:
            lines = [f"{'phrasing':{width}}  episodes  paid  rejected"]
            lines += [f"{n:{width}}  {r.episodes:8d}  {r.paid:4d}  {self.failures(r):8d}"
                      for n, r in [*((n, self.rows[n]) for n in names), ("total", total)]]
        else:
            lines = [f"{'adversary':{width}}  episodes  paid  allowed  skipped"]
            lines += [f"{n:{width}}  {r.episodes:8d}  {r.paid:4d}  {r.allowed:7d}  {r.skipped:7d}"
                      for n, r in [*((n, self.rows[n]) for n in names), ("total", total)]]
        lines.append(f"{total.episodes} episodes in {self.seconds:.1f} s")
        return "\n".join(lines)

    def wrong_tasks(self) -> dict[str, list[str]]:
        """Name -> the tasks with an episode judged against the suite's goal."""
        return {name: list(row.wrong_tasks) for name, row in self.rows.items() if row.wrong_tasks}
